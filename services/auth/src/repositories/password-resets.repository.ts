import { executeSql, sql } from '@hoptrack/runtime';
import type { Db } from '../db';
import type { PasswordReset } from '../generated/prisma/client';

export type NewPasswordReset = Pick<PasswordReset, 'tokenHash' | 'userId' | 'expiresAt'>;

/** Reset links (their tokens' hashes): one row a link, with no user for a request for an unknown address. */
export const passwordResetsRepository = {
  findByTokenHash(db: Db, tokenHash: string): Promise<PasswordReset | null> {
    return db.passwordReset.findUnique({ where: { tokenHash } });
  },
  create(db: Db, data: NewPasswordReset): Promise<PasswordReset> {
    return db.passwordReset.create({ data });
  },
  /** Deletes the user's links; how many went. */
  async deleteForUser(db: Db, userId: string): Promise<number> {
    return (await db.passwordReset.deleteMany({ where: { userId } })).count;
  },
  /** Deletes the link if it is this user's; how many went (1 for the one caller that uses it, 0 for any other). */
  async deleteToken(db: Db, tokenHash: string, userId: string): Promise<number> {
    return (await db.passwordReset.deleteMany({ where: { tokenHash, userId } })).count;
  },
  /** Housekeeping: links past their hour, and a day's grace. */
  deleteExpired(db: Db): Promise<number> {
    return executeSql(db, sql`DELETE FROM "password_resets" WHERE "expires_at" < now() - interval '1 day'`);
  },
};
