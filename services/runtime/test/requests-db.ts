import pg from 'pg';
import { memoryLogger, testDatabaseUrl } from '@hoptrack/testing';
import { ensureDatabase } from '../src/db/database';
import { migrate } from '../src/db/migrate';
import { pgSqlClient } from '../src/db/pg-sql-client';
import { platformMigrationDirs } from '../src/db/platform-parts';
import type { SqlClient } from '../src/db/sql';

/** A database with the platform's parts (the idempotent requests), for the runtime's route tests. */
export async function requestsDatabase(name: string): Promise<{ db: SqlClient; pool: pg.Pool; close(): Promise<void> }> {
  const url = testDatabaseUrl(name);
  await ensureDatabase(url);
  const [first, ...rest] = platformMigrationDirs();
  if (!first) throw new Error('the platform has no migration parts');
  await migrate({ connectionString: url, migrationsDir: first, include: rest, logger: memoryLogger('requests-db').logger });
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  return { db: pgSqlClient(pool), pool, close: () => pool.end() };
}
