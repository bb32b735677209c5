import { executeSql, queryRows, sql, type SqlClient } from '@hoptrack/runtime';
import type { Db } from '../db';

/** Transaction-scoped advisory locks: held until the transaction that takes them ends. */
export const locksRepository = {
  /**
   * Serialises storing a person's files (shared, per store) with erasing them
   * (exclusive): a file stored on a link or by a request issued before the
   * deletion either lands before the erasure lists the folders, or finds the
   * tombstone after it and is refused.
   */
  async filesOf(db: SqlClient, userId: string, mode: 'shared' | 'exclusive'): Promise<void> {
    const lock = mode === 'shared' ? sql`pg_advisory_xact_lock_shared` : sql`pg_advisory_xact_lock`;
    const key = `media-files:${userId.toLowerCase()}`;
    await queryRows<unknown[]>(db, sql`SELECT ${lock}(hashtext(${key}))::text`);
  },

  /** Makes two uploads on one upload link (its key) at once one after the other. */
  async uploadLink(db: Db, key: string): Promise<void> {
    await executeSql(db, sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`);
  },
};
