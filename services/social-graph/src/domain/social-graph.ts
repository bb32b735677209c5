import {
  MAX_PINNED_FRIENDS,
  PIN_LIMIT_MESSAGE,
  PRIVATE_FOLLOWERS_MESSAGE,
  PRIVATE_FOLLOWING_MESSAGE,
  PRIVATE_PROFILE_MESSAGE,
  type BlockedUser as BlockedUserView,
  type EventData,
  type EventType,
  type FollowList,
  type Friend,
  type FriendRequest,
  type Friendship as FriendshipView,
  type MyStats,
  type OtherUser,
  type UserStats,
} from '@hoptrack/proto';
import { badRequest, conflict, forbidden, notFound, type Outbox } from '@hoptrack/runtime';
import { isUniqueViolation, type Db, type Friendship, type Prisma, type PrismaClient, type User } from '../db';
import { friendshipsRepository as friendships } from '../repositories/friendships.repository';
import { graphRepository as graph, type Page } from '../repositories/graph.repository';
import { usersRepository as users } from '../repositories/users.repository';
import { canViewDetails, relationOf, relationsOf, type RelationView } from './relations';
import { toBlockedUser, toFollowEntry, toFriend, toOtherUser, toUserCard } from './views';

export interface SocialGraphDeps {
  prisma: PrismaClient;
  outbox: Outbox;
  onEventsCommitted: () => void;
  clock: () => Date;
  /** Waits until the other services applied these events (privacy changes answer only then). */
  settle?: (eventIds: string[]) => Promise<unknown>;
}

type Emit = <T extends EventType>(type: T, data: EventData<T>) => void;

const DAY_MS = 24 * 60 * 60 * 1000;
const WEEK_MS = 7 * DAY_MS;
/** How far back "most active" looks for suggestions. */
const SUGGESTIONS_ACTIVE_DAYS = 30;
const USER_NOT_FOUND = 'User not found';
const FRIEND_NOT_FOUND = 'Friend not found';

/** The viewer's pinned rows as the lists show them: by place, the earlier change first on a tie (rows from before places were kept dense). */
export function pinnedInOrder(rows: Friendship[]): Friendship[] {
  return rows
    .filter((r) => r.isPinned)
    .sort((a, b) => (a.pinnedOrder ?? 0) - (b.pinnedOrder ?? 0) || a.updatedAt.getTime() - b.updatedAt.getTime());
}

/** Writes each pin's place in `list` (0, 1, 2...), touching only the rows whose place changes. */
export async function numberPins(tx: Prisma.TransactionClient, list: Friendship[]): Promise<void> {
  for (const [place, row] of list.entries()) {
    if (!row.isPinned || row.pinnedOrder !== place) await friendships.update(tx, row.id, { isPinned: true, pinnedOrder: place });
  }
}

/**
 * The social graph's rules. Reads decide visibility from the viewer's
 * relation (relations.ts); writes change rows and announce the change in
 * the same transaction (outbox), one event per real change.
 */
export class SocialGraph {
  constructor(private readonly deps: SocialGraphDeps) {}

  private get db(): PrismaClient {
    return this.deps.prisma;
  }

  // ---- reads ----

  async search(viewerId: string, q: string, page: Page): Promise<OtherUser[]> {
    return this.hydrateOthers(viewerId, await graph.search(this.db, viewerId, q, page));
  }

  /** People to follow for an empty feed: friends of friends, then the most active public profiles of the last SUGGESTIONS_ACTIVE_DAYS. */
  async suggestions(viewerId: string, limit: number): Promise<OtherUser[]> {
    const since = new Date(this.deps.clock().getTime() - SUGGESTIONS_ACTIVE_DAYS * DAY_MS);
    return this.hydrateOthers(viewerId, await graph.suggestions(this.db, viewerId, since, limit));
  }

  async profileById(viewerId: string, id: string): Promise<OtherUser> {
    return this.profile(viewerId, await users.findById(this.db, id));
  }

  async profileByUsername(viewerId: string, username: string): Promise<OtherUser> {
    return this.profile(viewerId, await users.findByUsername(this.db, username));
  }

  async stats(viewerId: string, userId: string): Promise<UserStats> {
    const { user, view } = await this.visibleUser(viewerId, userId);
    if (!canViewDetails(view.relation, user)) throw forbidden(PRIVATE_PROFILE_MESSAGE);
    return this.statsOf(viewerId, userId);
  }

  async myStats(viewerId: string): Promise<MyStats> {
    const [stats, counts, weeklyTotal] = await Promise.all([
      this.statsOf(viewerId, viewerId),
      graph.followCounts(this.db, viewerId, viewerId),
      graph.beersSince(this.db, viewerId, new Date(this.deps.clock().getTime() - WEEK_MS)),
    ]);
    return { ...stats, weeklyTotal, friendsCount: counts.friends };
  }

  followers(viewerId: string, userId: string, page: Page): Promise<FollowList> {
    return this.followList(viewerId, userId, page, 'followers');
  }

  following(viewerId: string, userId: string, page: Page): Promise<FollowList> {
    return this.followList(viewerId, userId, page, 'following');
  }

  async friends(viewerId: string, pinnedOnly = false): Promise<Friend[]> {
    const rows = await friendships.friendsOf(this.db, viewerId, pinnedOnly);
    const byId = await this.usersById(rows.map((r) => r.friendId));
    return rows.flatMap((row) => {
      const user = byId.get(row.friendId);
      return user ? [toFriend(row, user)] : [];
    });
  }

  async incomingRequests(viewerId: string): Promise<FriendRequest[]> {
    return this.requestsWith(await friendships.incomingRequests(this.db, viewerId), (row) => row.userId);
  }

  /** The requests the viewer sent and nobody answered yet; each names its recipient. */
  async sentRequests(viewerId: string): Promise<FriendRequest[]> {
    return this.requestsWith(await friendships.sentRequests(this.db, viewerId), (row) => row.friendId);
  }

  /** Pending rows as requests, each with the card of the other person (`other`); a person gone meanwhile is left out. */
  private async requestsWith(rows: Friendship[], other: (row: Friendship) => string): Promise<FriendRequest[]> {
    const byId = await this.usersById(rows.map(other));
    return rows.flatMap((row) => {
      const user = byId.get(other(row));
      return user ? [{ id: row.id, user: toUserCard(user), createdAt: row.createdAt.toISOString() }] : [];
    });
  }

  async blocked(viewerId: string): Promise<BlockedUserView[]> {
    const rows = await friendships.blockedBy(this.db, viewerId);
    const byId = await this.usersById(rows.map((r) => r.blockedId));
    return rows.flatMap((row) => {
      const user = byId.get(row.blockedId);
      return user ? [toBlockedUser(row, user)] : [];
    });
  }

  // ---- writes ----

  /** A request to someone who already asked you is an acceptance. */
  async requestFriendship(viewerId: string, friendId: string, requestId: string): Promise<FriendshipView> {
    if (friendId === viewerId) throw badRequest('You cannot send a friend request to yourself', 'friendId');
    if (!(await users.findById(this.db, friendId))) throw notFound(USER_NOT_FOUND);
    try {
      return await this.write(requestId, async (tx, emit) => {
        await friendships.lockPair(tx, viewerId, friendId);
        const view = await relationOf(tx, viewerId, friendId);
        switch (view.relation) {
          case 'blocked':
            // Same answer whoever blocked whom: a block must not be detectable.
            throw forbidden('You cannot send a friend request to this user');
          case 'friend':
            throw conflict('You are already friends', 'friendId');
          case 'sent':
            throw conflict('Friend request already sent', 'friendId');
          case 'pending': {
            const request = await friendships.findById(tx, view.friendshipId ?? '');
            if (!request) throw conflict('Friend request changed, try again');
            const accepted = await friendships.accept(tx, request);
            emit('social.friendship.accepted.v1', { friendshipId: request.id, requesterId: friendId, recipientId: viewerId });
            return friendshipView(accepted);
          }
          default: {
            const created = await friendships.createRequest(tx, viewerId, friendId);
            emit('social.friendship.requested.v1', { friendshipId: created.id, requesterId: viewerId, recipientId: friendId });
            return friendshipView(created);
          }
        }
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('Friend request already sent', 'friendId');
      throw err;
    }
  }

  async respond(viewerId: string, friendshipId: string, action: 'accept' | 'reject', requestId: string): Promise<{ id: string; status: 'accepted' | 'rejected' }> {
    return this.write(requestId, async (tx, emit) => {
      const found = await friendships.findById(tx, friendshipId);
      if (!found) throw notFound('Friend request not found');
      if (found.friendId !== viewerId) throw forbidden('Only the recipient can respond to this friend request');
      // Serialised with blocks and requests between the same two users; re-read under the lock.
      await friendships.lockPair(tx, found.userId, found.friendId);
      const request = await friendships.findById(tx, friendshipId);
      if (!request) throw notFound('Friend request not found');
      if (request.status === 'accepted') throw conflict('Friend request already accepted');
      const pair = { friendshipId: request.id, requesterId: request.userId, recipientId: viewerId };
      if (action === 'accept') {
        await friendships.accept(tx, request);
        emit('social.friendship.accepted.v1', pair);
        return { id: request.id, status: 'accepted' };
      }
      await friendships.deleteById(tx, request.id);
      emit('social.friendship.rejected.v1', pair);
      return { id: request.id, status: 'rejected' };
    });
  }

  /**
   * The sender takes a pending request back: the row goes and the request's
   * consequences with it, announced as a rejection is (the recipient's
   * notification, the follow and the feed). Only its sender may: the
   * recipient answers it (403), anyone else does not learn it exists (404).
   */
  async withdraw(viewerId: string, friendshipId: string, requestId: string): Promise<void> {
    await this.write(requestId, async (tx, emit) => {
      const found = await friendships.findById(tx, friendshipId);
      if (!found || (found.userId !== viewerId && found.friendId !== viewerId)) throw notFound('Friend request not found');
      if (found.userId !== viewerId) throw forbidden('Only the sender can withdraw this friend request');
      await friendships.lockPair(tx, found.userId, found.friendId);
      const request = await friendships.findById(tx, friendshipId);
      if (!request) throw notFound('Friend request not found');
      if (request.status !== 'pending') throw conflict('Friend request already accepted');
      await friendships.deleteById(tx, request.id);
      emit('social.friendship.rejected.v1', { friendshipId: request.id, requesterId: viewerId, recipientId: request.friendId });
    });
  }

  async unfriend(viewerId: string, friendId: string, requestId: string): Promise<void> {
    await this.write(requestId, async (tx, emit) => {
      const mine = await friendships.findPair(tx, viewerId, friendId);
      if (mine?.status !== 'accepted') throw notFound(FRIEND_NOT_FOUND);
      await friendships.deleteBetween(tx, viewerId, friendId);
      emit('social.friendship.removed.v1', { userId: viewerId, friendId });
    }, { settle: true });
  }

  /** Blocking ends any friendship or request between the two, in the same transaction. */
  async block(viewerId: string, targetId: string, reason: string | undefined, requestId: string): Promise<void> {
    if (targetId === viewerId) throw badRequest('You cannot block yourself', 'id');
    if (!(await users.findById(this.db, targetId))) throw notFound(USER_NOT_FOUND);
    try {
      await this.write(requestId, async (tx, emit) => {
        await friendships.lockPair(tx, viewerId, targetId);
        if (await friendships.findBlock(tx, viewerId, targetId)) throw conflict('User already blocked');
        await friendships.deleteBetween(tx, viewerId, targetId);
        await friendships.createBlock(tx, viewerId, targetId, reason?.trim() || null);
        emit('social.user.blocked.v1', { blockerId: viewerId, blockedId: targetId });
      }, { settle: true });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('User already blocked');
      throw err;
    }
  }

  async unblock(viewerId: string, targetId: string, requestId: string): Promise<void> {
    await this.write(requestId, async (tx, emit) => {
      const block = await friendships.findBlock(tx, viewerId, targetId);
      if (!block) throw notFound('User is not blocked');
      await friendships.deleteBlock(tx, block.id);
      emit('social.user.unblocked.v1', { blockerId: viewerId, blockedId: targetId });
    });
  }

  async setMuted(viewerId: string, friendId: string, muted: boolean, requestId: string): Promise<void> {
    await this.write(requestId, async (tx, emit) => {
      const row = await this.friendRow(tx, viewerId, friendId);
      if (row.isMuted === muted) return;
      await friendships.update(tx, row.id, { isMuted: muted });
      emit(muted ? 'social.friend.muted.v1' : 'social.friend.unmuted.v1', { userId: viewerId, friendId });
    }, { settle: true });
  }

  /**
   * Pins a friend at a place in the pinned list (`order`, 0 = first; past the
   * end = last), or moves a pinned friend there: the others shift, and the
   * list stays numbered 0, 1, 2... Without an order a new pin goes last and a
   * pinned friend stays. A sixth pin is refused with the spec's text.
   */
  async pin(viewerId: string, friendId: string, order: number | undefined, requestId: string): Promise<void> {
    await this.write(requestId, async (tx, emit) => {
      const rows = await friendships.lockFriendsOf(tx, viewerId);
      const row = rows.find((r) => r.friendId === friendId);
      if (!row) throw notFound(FRIEND_NOT_FOUND);
      const pinned = pinnedInOrder(rows);
      const others = pinned.filter((r) => r.id !== row.id);
      if (!row.isPinned && others.length >= MAX_PINNED_FRIENDS) throw conflict(PIN_LIMIT_MESSAGE);
      const place = Math.min(order ?? (row.isPinned ? pinned.indexOf(row) : others.length), others.length);
      others.splice(place, 0, row);
      await numberPins(tx, others);
      if (!row.isPinned || row.pinnedOrder !== place) emit('social.friend.pinned.v1', { userId: viewerId, friendId, order: place });
    });
  }

  /** Unpins a friend; the pins after it move up a place. */
  async unpin(viewerId: string, friendId: string, requestId: string): Promise<void> {
    await this.write(requestId, async (tx, emit) => {
      const rows = await friendships.lockFriendsOf(tx, viewerId);
      const row = rows.find((r) => r.friendId === friendId);
      if (!row) throw notFound(FRIEND_NOT_FOUND);
      if (!row.isPinned) return;
      await friendships.update(tx, row.id, { isPinned: false, pinnedOrder: null });
      await numberPins(tx, pinnedInOrder(rows).filter((r) => r.id !== row.id));
      emit('social.friend.unpinned.v1', { userId: viewerId, friendId });
    });
  }

  // ---- helpers ----

  /** Runs a change in one transaction with the events it emits; publishing is nudged after commit. */
  /**
   * A write and its events in one transaction. With `settle`, the answer also
   * waits until the other services applied the events: what the person just
   * restricted (a block, an unfriend, a mute) is hidden everywhere once they see 'done'.
   */
  private async write<R>(requestId: string, fn: (tx: Prisma.TransactionClient, emit: Emit) => Promise<R>, options: { settle?: boolean } = {}): Promise<R> {
    const eventIds: string[] = [];
    const result = await this.db.$transaction(async (tx) => {
      const pending: Array<Promise<unknown>> = [];
      const emit: Emit = (type, data) => {
        pending.push(this.deps.outbox.enqueue(tx, type, data, requestId).then((envelope) => eventIds.push(envelope.id)));
      };
      const value = await fn(tx, emit);
      await Promise.all(pending);
      return value;
    });
    if (eventIds.length > 0) {
      this.deps.onEventsCommitted();
      if (options.settle) await this.deps.settle?.(eventIds);
    }
    return result;
  }

  private async friendRow(db: Db, viewerId: string, friendId: string): Promise<Friendship> {
    const row = await friendships.findPair(db, viewerId, friendId);
    if (row?.status !== 'accepted') throw notFound(FRIEND_NOT_FOUND);
    return row;
  }

  private async profile(viewerId: string, user: User | null): Promise<OtherUser> {
    if (!user) throw notFound(USER_NOT_FOUND);
    const [other] = await this.hydrateOthers(viewerId, [user]);
    // A block hides the profile as if it did not exist, whichever side blocked.
    if (!other) throw notFound(USER_NOT_FOUND);
    return other;
  }

  private async hydrateOthers(viewerId: string, list: User[]): Promise<OtherUser[]> {
    const ids = list.map((u) => u.id);
    const [relations, mutual, totals] = await Promise.all([
      relationsOf(this.db, viewerId, ids),
      graph.mutualFriends(this.db, viewerId, ids),
      graph.sessionTotals(this.db, ids),
    ]);
    return list.flatMap((user) => {
      const view = relations.get(user.id);
      if (!view || view.relation === 'blocked') return [];
      return [toOtherUser(user, view, { mutualFriends: mutual.get(user.id) ?? 0, totalSessions: totals.get(user.id)?.sessions ?? 0 })];
    });
  }

  private async visibleUser(viewerId: string, userId: string): Promise<{ user: User; view: RelationView }> {
    const user = await users.findById(this.db, userId);
    if (!user) throw notFound(USER_NOT_FOUND);
    const view = await relationOf(this.db, viewerId, userId);
    if (view.relation === 'blocked') throw notFound(USER_NOT_FOUND);
    return { user, view };
  }

  private async statsOf(viewerId: string, userId: string): Promise<UserStats> {
    const [counts, totals] = await Promise.all([graph.followCounts(this.db, viewerId, userId), graph.sessionTotals(this.db, [userId])]);
    const total = totals.get(userId);
    return {
      totalSessions: total?.sessions ?? 0,
      totalHours: Math.round(((total?.minutes ?? 0) / 60) * 10) / 10,
      followersCount: counts.followers,
      followingCount: counts.following,
    };
  }

  private async followList(viewerId: string, userId: string, page: Page, kind: 'followers' | 'following'): Promise<FollowList> {
    const { user, view } = await this.visibleUser(viewerId, userId);
    if (!canViewDetails(view.relation, user)) {
      throw forbidden(kind === 'followers' ? PRIVATE_FOLLOWERS_MESSAGE : PRIVATE_FOLLOWING_MESSAGE);
    }
    const [list, counts] = await Promise.all([graph[kind](this.db, viewerId, userId, page), graph.followCounts(this.db, viewerId, userId)]);
    const relations = await relationsOf(this.db, viewerId, list.users.map((u) => u.id));
    return {
      users: list.users.flatMap((u) => {
        const rel = relations.get(u.id);
        return rel ? [toFollowEntry(u, rel)] : [];
      }),
      total: list.total,
      followersCount: counts.followers,
      followingCount: counts.following,
    };
  }

  private async usersById(ids: string[]): Promise<Map<string, User>> {
    return new Map((await users.findMany(this.db, ids)).map((u) => [u.id, u]));
  }
}

function friendshipView(row: Friendship): FriendshipView {
  return {
    id: row.id,
    userId: row.userId,
    friendId: row.friendId,
    status: row.status === 'accepted' ? 'accepted' : 'pending',
    createdAt: row.createdAt.toISOString(),
  };
}
