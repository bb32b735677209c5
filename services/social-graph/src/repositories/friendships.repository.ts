import { executeSql, sql } from '@hoptrack/runtime';
import type { BlockedUser, Db, Friendship } from '../db';


/** Friendship rows and blocks. Accepted friendships are two rows, one per side. */
export const friendshipsRepository = {
  findById(db: Db, id: string): Promise<Friendship | null> {
    return db.friendship.findUnique({ where: { id } });
  },
  findPair(db: Db, userId: string, friendId: string): Promise<Friendship | null> {
    return db.friendship.findUnique({ where: { userId_friendId: { userId, friendId } } });
  },
  /** Rows between the viewer and any of the targets, in either direction. */
  between(db: Db, viewerId: string, targetIds: string[]): Promise<Friendship[]> {
    return db.friendship.findMany({
      where: {
        OR: [
          { userId: viewerId, friendId: { in: targetIds } },
          { friendId: viewerId, userId: { in: targetIds } },
        ],
      },
    });
  },
  blocksBetween(db: Db, viewerId: string, targetIds: string[]): Promise<BlockedUser[]> {
    return db.blockedUser.findMany({
      where: {
        OR: [
          { blockerId: viewerId, blockedId: { in: targetIds } },
          { blockedId: viewerId, blockerId: { in: targetIds } },
        ],
      },
    });
  },
  createRequest(db: Db, userId: string, friendId: string): Promise<Friendship> {
    return db.friendship.create({ data: { userId, friendId, status: 'pending' } });
  },
  /** Turns a pending request into a friendship: the request row is accepted and the other side's row is created. */
  async accept(db: Db, request: Friendship): Promise<Friendship> {
    const accepted = await db.friendship.update({ where: { id: request.id }, data: { status: 'accepted' } });
    await db.friendship.upsert({
      where: { userId_friendId: { userId: request.friendId, friendId: request.userId } },
      create: { userId: request.friendId, friendId: request.userId, status: 'accepted' },
      update: { status: 'accepted' },
    });
    return accepted;
  },
  deleteById(db: Db, id: string): Promise<Friendship> {
    return db.friendship.delete({ where: { id } });
  },
  /** Removes every row between two users, whatever its status; returns how many went. */
  async deleteBetween(db: Db, a: string, b: string): Promise<number> {
    const { count } = await db.friendship.deleteMany({
      where: { OR: [{ userId: a, friendId: b }, { userId: b, friendId: a }] },
    });
    return count;
  },
  friendsOf(db: Db, userId: string, onlyPinned = false): Promise<Array<Friendship>> {
    return db.friendship.findMany({
      where: { userId, status: 'accepted', ...(onlyPinned ? { isPinned: true } : {}) },
      orderBy: onlyPinned ? [{ pinnedOrder: 'asc' }, { updatedAt: 'asc' }] : [{ isPinned: 'desc' }, { pinnedOrder: 'asc' }, { createdAt: 'desc' }],
    });
  },
  incomingRequests(db: Db, userId: string): Promise<Friendship[]> {
    return db.friendship.findMany({ where: { friendId: userId, status: 'pending' }, orderBy: { createdAt: 'desc' } });
  },
  /** Pending requests the user sent, newest first. */
  sentRequests(db: Db, userId: string): Promise<Friendship[]> {
    return db.friendship.findMany({ where: { userId, status: 'pending' }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  },
  /** The user's own rows (friends and requests sent), oldest first. */
  ownRowsOldestFirst(db: Db, userId: string): Promise<Friendship[]> {
    return db.friendship.findMany({ where: { userId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  },
  /** Pending requests to the user, oldest first. */
  incomingRequestsOldestFirst(db: Db, userId: string): Promise<Friendship[]> {
    return db.friendship.findMany({ where: { friendId: userId, status: 'pending' }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  },
  /** The users who pinned this one (the owners of the pinned rows). */
  async ownersWhoPinned(db: Db, friendId: string): Promise<string[]> {
    return (await db.friendship.findMany({ where: { friendId, isPinned: true }, select: { userId: true } })).map((r) => r.userId);
  },
  /** Deletes every row of the user's, in either direction; how many went. */
  async deleteAllOf(db: Db, userId: string): Promise<number> {
    return (await db.friendship.deleteMany({ where: { OR: [{ userId }, { friendId: userId }] } })).count;
  },
  /**
   * Serialises changes between two users (in either order) until the transaction ends, so two
   * crossing requests, or a request and a block, cannot both decide on the same stale state.
   */
  async lockPair(db: Db, a: string, b: string): Promise<void> {
    const key = a < b ? `${a}:${b}` : `${b}:${a}`;
    await executeSql(db, sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`);
  },
  /** Locks the user's own friendship rows, so concurrent pins count one after the other. */
  async lockFriendsOf(db: Db, userId: string): Promise<Friendship[]> {
    await executeSql(db, sql`SELECT 1 FROM friendships WHERE user_id = ${userId}::uuid FOR UPDATE`);
    return db.friendship.findMany({ where: { userId, status: 'accepted' } });
  },
  update(db: Db, id: string, data: Partial<Pick<Friendship, 'isPinned' | 'isMuted' | 'pinnedOrder'>>): Promise<Friendship> {
    return db.friendship.update({ where: { id }, data });
  },
  findBlock(db: Db, blockerId: string, blockedId: string): Promise<BlockedUser | null> {
    return db.blockedUser.findUnique({ where: { blockerId_blockedId: { blockerId, blockedId } } });
  },
  createBlock(db: Db, blockerId: string, blockedId: string, reason: string | null): Promise<BlockedUser> {
    return db.blockedUser.create({ data: { blockerId, blockedId, reason } });
  },
  deleteBlock(db: Db, id: string): Promise<BlockedUser> {
    return db.blockedUser.delete({ where: { id } });
  },
  blockedBy(db: Db, blockerId: string): Promise<BlockedUser[]> {
    return db.blockedUser.findMany({ where: { blockerId }, orderBy: { createdAt: 'desc' } });
  },
  /** The blocks the user made, oldest first. */
  blocksMadeOldestFirst(db: Db, blockerId: string): Promise<BlockedUser[]> {
    return db.blockedUser.findMany({ where: { blockerId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  },
  /** Deletes every block the user made or received; how many went. */
  async deleteBlocksOf(db: Db, userId: string): Promise<number> {
    return (await db.blockedUser.deleteMany({ where: { OR: [{ blockerId: userId }, { blockedId: userId }] } })).count;
  },
};
