import type { UserSnapshot } from '@hoptrack/proto';
import { escapeLike } from '@hoptrack/runtime';
import type { Db, User } from '../db';

/** The read model of users, kept from user.* events. */
export const usersRepository = {
  findById(db: Db, id: string): Promise<User | null> {
    return db.user.findUnique({ where: { id } });
  },
  findByUsername(db: Db, username: string): Promise<User | null> {
    return db.user.findFirst({ where: { username: { equals: escapeLike(username), mode: 'insensitive' } } });
  },
  findMany(db: Db, ids: string[]): Promise<User[]> {
    return db.user.findMany({ where: { id: { in: ids } } });
  },
  /**
   * Applies a snapshot unless a newer one is already stored: events of one
   * user may be redelivered or replayed, and a stale snapshot must not win.
   */
  async applySnapshot(db: Db, snapshot: UserSnapshot): Promise<void> {
    const data = {
      email: snapshot.email,
      username: snapshot.username,
      displayName: snapshot.displayName,
      bio: snapshot.bio,
      avatar: snapshot.avatar,
      profilePicture: snapshot.profilePicture,
      isProfilePrivate: snapshot.isProfilePrivate,
      allowDirectMessages: snapshot.allowDirectMessages,
      showOnlineStatus: snapshot.showOnlineStatus,
      tokenVersion: snapshot.tokenVersion,
      createdAt: new Date(snapshot.createdAt),
      updatedAt: new Date(snapshot.updatedAt),
    };
    await db.user.upsert({ where: { id: snapshot.id }, create: { id: snapshot.id, ...data }, update: {} });
    await db.user.updateMany({ where: { id: snapshot.id, updatedAt: { lte: data.updatedAt } }, data });
  },
};
