import { forbidden, notFound } from '@hoptrack/runtime';
import type { Db } from '../db';

/**
 * Whether a viewer may see a user's albums and photos, from the read models:
 * blocks either way hide everything (404, as if absent); a private profile
 * shows them to friends only (403). A user not heard of yet counts as public.
 */
export async function assertCanViewMediaOf(db: Db, viewerId: string, ownerId: string): Promise<void> {
  if (viewerId === ownerId) return;
  const [block, owner, friendship] = await Promise.all([
    db.block.findFirst({
      where: { OR: [{ blockerId: viewerId, blockedId: ownerId }, { blockerId: ownerId, blockedId: viewerId }] },
    }),
    db.user.findUnique({ where: { id: ownerId } }),
    db.friendPair.findUnique({ where: { userId_friendId: { userId: viewerId, friendId: ownerId } } }),
  ]);
  if (block) throw notFound('Album not found');
  if (owner?.isProfilePrivate && !friendship) throw forbidden('This profile is private');
}
