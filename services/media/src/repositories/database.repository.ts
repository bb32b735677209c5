import { queryRows, sql } from '@hoptrack/runtime';
import type { Db } from '../db';

/** The database itself, no table of it. */
export const databaseRepository = {
  /** Answers when the database does (/readyz). */
  ping(db: Db): Promise<unknown> {
    return queryRows<unknown>(db, sql`SELECT 1`);
  },
};
