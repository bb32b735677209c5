import { queryRows, sql } from '@hoptrack/runtime';
import type { Db } from '../db';

/** The database as a whole, not one of its tables. */
export const databaseRepository = {
  /** A round trip to Postgres (/readyz). */
  ping(db: Db): Promise<unknown> {
    return queryRows<unknown>(db, sql`SELECT 1`);
  },
};
