import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Each service's tests use their own database on the local (or TEST_PG_URL) server. */
export function testDatabaseUrl(service: string): string {
  const base = process.env.TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432';
  return `${base.replace(/\/$/, '')}/hoptrack_${service}_test`;
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
