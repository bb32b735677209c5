import type { UserSnapshot } from '@hoptrack/proto';
import { escapeLike, upsertNewerSnapshot } from '@hoptrack/runtime';
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
  applySnapshot(db: Db, snapshot: UserSnapshot): Promise<void> {
    return upsertNewerSnapshot(db, 'users', {
      id: snapshot.id,
      email: snapshot.email,
      username: snapshot.username,
      display_name: snapshot.displayName,
      bio: snapshot.bio,
      avatar: snapshot.avatar,
      profile_picture: snapshot.profilePicture,
      is_profile_private: snapshot.isProfilePrivate,
      allow_direct_messages: snapshot.allowDirectMessages,
      show_online_status: snapshot.showOnlineStatus,
      token_version: snapshot.tokenVersion,
      created_at: new Date(snapshot.createdAt),
      updated_at: new Date(snapshot.updatedAt),
    });
  },
};
