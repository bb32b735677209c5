import { audienceSql, badRequest, blockedBetween, forbidden, identifier, notFound, personById, sql, type Person } from '@hoptrack/runtime';
import type { Db } from '../db';

export { blockedBetween };

export const CANNOT_MESSAGE = 'You cannot message this user';
export const DMS_OFF = 'This user does not accept direct messages';

/** SQL: no block between the two participants of conversation `c`. */
export const NOT_BLOCKED = sql`NOT ${audienceSql.blockedBetween(identifier('c.participant1_id'), identifier('c.participant2_id'))}`;

/**
 * Whom `viewerId` may address as `otherId` (start a conversation, open a
 * thread): not themselves (400 on `field`), someone the read model knows (404),
 * nobody either of them blocked (403).
 */
export async function addressable(db: Db, viewerId: string, otherId: string, field: string): Promise<Person> {
  if (otherId === viewerId) throw badRequest('You cannot message yourself', field);
  const other = await personById(db, otherId);
  if (!other) throw notFound('User not found');
  if (await blockedBetween(db, viewerId, otherId)) throw forbidden(CANNOT_MESSAGE);
  return other;
}

/** Sending also needs the recipient to accept direct messages (spec 6: others cannot message them). */
export function assertAcceptsMessages(recipient: Pick<Person, 'allowDirectMessages'>): void {
  if (!recipient.allowDirectMessages) throw forbidden(DMS_OFF);
}

/** The one conversation per pair, whoever starts it. */
export const pairKey = (a: string, b: string) => (a < b ? `${a}:${b}` : `${b}:${a}`);
