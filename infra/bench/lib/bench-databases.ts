import { createLogger, migrateDatabase, type DatabasePart } from '@hoptrack/runtime';
import { pgBase } from '@hoptrack/testing/stack';
import pg from 'pg';
import { database as auth } from '../../../services/auth/src/connections';
import { database as media } from '../../../services/media/src/connections';
import { database as messaging } from '../../../services/messaging/src/connections';
import { database as notifications } from '../../../services/notifications/src/connections';
import { database as places } from '../../../services/places/src/connections';
import { database as sessions } from '../../../services/sessions/src/connections';
import { database as socialGraph } from '../../../services/social-graph/src/connections';
import type { BenchDatabase } from '../seed';

/**
 * The databases the bulk loader writes, made without starting the stack: each
 * migrated with its service's own database part (what the service applies at
 * start and the operators' Job applies, infra/ops/migrate.ts), so a load
 * into them is the load `make bench` does into the stack's.
 */
const PARTS: Record<BenchDatabase, DatabasePart<never>> = { auth, socialGraph, sessions, media, messaging, places, notifications };

/** The loader's databases with a suffix: hoptrack_<service>_<suffix>, as run.ts names its own. */
export function benchDatabases(suffix: string): Record<BenchDatabase, string> {
  const name = (db: BenchDatabase) => `hoptrack_${db === 'socialGraph' ? 'social_graph' : db}${suffix}`;
  return Object.fromEntries((Object.keys(PARTS) as BenchDatabase[]).map((db) => [db, `${pgBase()}/${name(db)}`])) as Record<BenchDatabase, string>;
}

export async function dropDatabases(urls: readonly string[]): Promise<void> {
  const admin = new pg.Client({ connectionString: `${pgBase()}/postgres` });
  await admin.connect();
  try {
    for (const url of urls) await admin.query(`DROP DATABASE IF EXISTS "${new URL(url).pathname.slice(1)}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** The community data set's databases, `make bench-load`'s: kept as templates, copied for each run. */
export const COMMUNITY_SUFFIX = '_community';

const nameOf = (url: string) => new URL(url).pathname.slice(1);

/**
 * Copies loaded databases under new names (`CREATE DATABASE … TEMPLATE …
 * STRATEGY FILE_COPY`: the files copied at disk speed, no WAL for the rows),
 * so each `make bench BENCH_SCALE=community` starts from the same data set
 * without loading it again. Fails naming the databases that are not there.
 */
export async function copyDatabases(from: Record<BenchDatabase, string>, to: Record<BenchDatabase, string>): Promise<void> {
  const admin = new pg.Client({ connectionString: `${pgBase()}/postgres` });
  await admin.connect();
  try {
    const present = new Set((await admin.query<{ datname: string }>('SELECT datname FROM pg_database')).rows.map((r) => r.datname));
    const missing = Object.values(from).map(nameOf).filter((name) => !present.has(name));
    if (missing.length > 0) throw new Error(`the community data set is not loaded (no ${missing.join(', ')}): run make bench-load first (docs/benchmarks.md)`);
    for (const db of Object.keys(from) as BenchDatabase[]) {
      await admin.query(`DROP DATABASE IF EXISTS "${nameOf(to[db])}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${nameOf(to[db])}" TEMPLATE "${nameOf(from[db])}" STRATEGY FILE_COPY`);
    }
  } finally {
    await admin.end();
  }
}

/** Drops and re-creates every loader database, migrated and empty. */
export async function freshBenchDatabases(databases: Record<BenchDatabase, string>): Promise<void> {
  await dropDatabases(Object.values(databases));
  const logger = createLogger('bench-databases', 'warn');
  for (const db of Object.keys(PARTS) as BenchDatabase[]) await migrateDatabase({ ...PARTS[db], url: () => databases[db], migrationUrl: () => databases[db] }, null, logger);
}

/** Each database's size on disk (pg_database_size), in bytes. */
export async function databaseSizes(databases: Record<BenchDatabase, string>): Promise<Record<BenchDatabase, number>> {
  const admin = new pg.Client({ connectionString: `${pgBase()}/postgres` });
  await admin.connect();
  try {
    const entries = [];
    for (const [db, url] of Object.entries(databases)) {
      const size = (await admin.query<{ n: string }>('SELECT pg_database_size($1) AS n', [new URL(url).pathname.slice(1)])).rows[0]?.n;
      entries.push([db, Number(size)]);
    }
    return Object.fromEntries(entries) as Record<BenchDatabase, number>;
  } finally {
    await admin.end();
  }
}
