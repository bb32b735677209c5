import { escapeLike } from '@hoptrack/runtime';
import type { Db, User } from '../db';

/** The people table (the audience module keeps it from user.* events), read typed, with social-graph's e-mail column. */
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
  /** Deletes the person's row, if it is still there; how many went. */
  async deleteById(db: Db, id: string): Promise<number> {
    return (await db.user.deleteMany({ where: { id } })).count;
  },
};
