import type { FriendshipStatus } from '@hoptrack/proto';
import { canSee, decideAccess } from '@hoptrack/runtime';
import type { Db, User } from '../db';
import { friendshipsRepository as friendships } from '../repositories/friendships.repository';

/** How the viewer stands to another user; every read decision starts here. */
export type Relation = 'self' | 'blocked' | 'friend' | 'sent' | 'pending' | 'none';

export interface RelationView {
  relation: Relation;
  /** The row behind sent / pending / friend: the request to accept, or the viewer's side of the friendship. */
  friendshipId: string | null;
}

/** The viewer's relation to each target, in two queries whatever the number of targets. */
export async function relationsOf(db: Db, viewerId: string, targetIds: string[]): Promise<Map<string, RelationView>> {
  const others = targetIds.filter((id) => id !== viewerId);
  const [rows, blocks] = others.length
    ? await Promise.all([friendships.between(db, viewerId, others), friendships.blocksBetween(db, viewerId, others)])
    : [[], []];
  const blocked = new Set(blocks.flatMap((b) => [b.blockerId, b.blockedId]));
  const result = new Map<string, RelationView>();
  for (const id of targetIds) {
    if (id === viewerId) {
      result.set(id, { relation: 'self', friendshipId: null });
      continue;
    }
    if (blocked.has(id)) {
      result.set(id, { relation: 'blocked', friendshipId: null });
      continue;
    }
    const mine = rows.find((r) => r.userId === viewerId && r.friendId === id);
    const theirs = rows.find((r) => r.userId === id && r.friendId === viewerId);
    if (mine?.status === 'accepted') result.set(id, { relation: 'friend', friendshipId: mine.id });
    else if (mine) result.set(id, { relation: 'sent', friendshipId: mine.id });
    else if (theirs?.status === 'pending') result.set(id, { relation: 'pending', friendshipId: theirs.id });
    else result.set(id, { relation: 'none', friendshipId: null });
  }
  return result;
}

export async function relationOf(db: Db, viewerId: string, targetId: string): Promise<RelationView> {
  return (await relationsOf(db, viewerId, [targetId])).get(targetId) ?? { relation: 'none', friendshipId: null };
}

/** Spec section 6: a private profile shows its details (bio, lists, stats, sessions) to friends only. */
export function canViewDetails(relation: Relation, target: Pick<User, 'isProfilePrivate'>): boolean {
  // The audience module's rule, on the facts this service keeps in its own tables.
  return canSee(decideAccess({ self: relation === 'self', blocked: relation === 'blocked', isProfilePrivate: target.isProfilePrivate, friend: relation === 'friend' }));
}

export function friendshipStatusOf(relation: Relation): FriendshipStatus {
  switch (relation) {
    case 'friend':
      return 'accepted';
    case 'sent':
      return 'sent';
    case 'pending':
      return 'pending';
    default:
      return 'none';
  }
}
