import { forbidden, notFound } from '@hoptrack/runtime';
import type { Db } from '../db';

export type MediaAccess = 'visible' | 'private' | 'blocked';

/**
 * Whether a viewer may see a user's albums and photos, from the read models:
 * blocks either way hide everything; a private profile shows them to friends
 * only. A user not heard of yet counts as public.
 */
export async function mediaAccess(db: Db, viewerId: string, ownerId: string): Promise<MediaAccess> {
  if (viewerId === ownerId) return 'visible';
  const [block, owner, friendship] = await Promise.all([
    db.block.findFirst({
      where: { OR: [{ blockerId: viewerId, blockedId: ownerId }, { blockerId: ownerId, blockedId: viewerId }] },
    }),
    db.user.findUnique({ where: { id: ownerId } }),
    db.friendPair.findUnique({ where: { userId_friendId: { userId: viewerId, friendId: ownerId } } }),
  ]);
  if (block) return 'blocked';
  if (owner?.isProfilePrivate && !friendship) return 'private';
  return 'visible';
}

/** The API's answer: a block 404 (as if absent), a private profile 403. */
export async function assertCanViewMediaOf(db: Db, viewerId: string, ownerId: string): Promise<void> {
  const access = await mediaAccess(db, viewerId, ownerId);
  if (access === 'blocked') throw notFound('Album not found');
  if (access === 'private') throw forbidden('This profile is private');
}
