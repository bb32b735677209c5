import { badRequest, forbidden, notFound } from '@hoptrack/runtime';
import { Prisma, type Db, type User } from '../db';

export const CANNOT_MESSAGE = 'You cannot message this user';
export const DMS_OFF = 'This user does not accept direct messages';

/** Either blocked the other: such a pair does not see each other's conversation at all. */
export async function blockedBetween(db: Db, a: string, b: string): Promise<boolean> {
  const found = await db.block.findFirst({
    where: { OR: [{ blockerId: a, blockedId: b }, { blockerId: b, blockedId: a }] },
    select: { blockerId: true },
  });
  return found !== null;
}

/** SQL: no block between the two participants of conversation `c`. */
export const NOT_BLOCKED = Prisma.sql`NOT EXISTS (
  SELECT 1 FROM blocks b
   WHERE (b.blocker_id = c.participant1_id AND b.blocked_id = c.participant2_id)
      OR (b.blocker_id = c.participant2_id AND b.blocked_id = c.participant1_id))`;

/**
 * Whom `viewerId` may address as `otherId` (start a conversation, open a
 * thread): not themselves (400 on `field`), someone the read model knows (404),
 * nobody either of them blocked (403).
 */
export async function addressable(db: Db, viewerId: string, otherId: string, field: string): Promise<User> {
  if (otherId === viewerId) throw badRequest('You cannot message yourself', field);
  const other = await db.user.findUnique({ where: { id: otherId } });
  if (!other) throw notFound('User not found');
  if (await blockedBetween(db, viewerId, otherId)) throw forbidden(CANNOT_MESSAGE);
  return other;
}

/** Sending also needs the recipient to accept direct messages (spec 6: others cannot message them). */
export function assertAcceptsMessages(recipient: Pick<User, 'allowDirectMessages'>): void {
  if (!recipient.allowDirectMessages) throw forbidden(DMS_OFF);
}

/** The one conversation per pair, whoever starts it. */
export const pairKey = (a: string, b: string) => (a < b ? `${a}:${b}` : `${b}:${a}`);
