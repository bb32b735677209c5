import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Each service's tests use their own database on the local (or TEST_PG_URL) server.
 * TEST_DB_SUFFIX keeps two checkouts' runs on one machine apart: without it,
 * one run's TRUNCATE at a file's start would empty the tables the other is using.
 */
export function testDatabaseUrl(service: string): string {
  const base = process.env.TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432';
  return `${base.replace(/\/$/, '')}/hoptrack_${service}_test${testDatabaseSuffix()}`;
}

/**
 * Appended to every test database name (see testDatabaseUrl): TEST_DB_SUFFIX, then
 * the vitest worker's pool id when files run side by side, so that two files of one
 * service never share (and truncate) one database.
 */
export function testDatabaseSuffix(): string {
  const suffix = process.env.TEST_DB_SUFFIX ?? '';
  if (!/^[a-z0-9_]*$/.test(suffix)) throw new Error(`TEST_DB_SUFFIX may hold only a-z, 0-9 and _: ${suffix}`);
  const worker = process.env.VITEST_POOL_ID;
  return worker && /^\d+$/.test(worker) ? `${suffix}_w${worker}` : suffix;
}

/** A bus namespace of its own per test file: streams and subjects never collide between runs. */
export function testNamespace(prefix: string): string {
  return `t${prefix.replace(/[^a-z0-9]/gi, '').toLowerCase()}${randomBytes(4).toString('hex')}`;
}

export async function truncate(connectionString: string, tables: string[]): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(`TRUNCATE ${tables.map((t) => `"${t}"`).join(', ')} RESTART IDENTITY CASCADE`);
  } finally {
    await client.end();
  }
}
