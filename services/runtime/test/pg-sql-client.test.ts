import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '@hoptrack/testing';
import { ensureDatabase } from '../src/db/database';
import { pgSqlClient } from '../src/db/pg-sql-client';

/**
 * The named mode of the plain-pg SQL client (notifications' inbox reads):
 * a statement is prepared once per connection under a name made from its
 * text and reused; the unnamed mode prepares nothing.
 */
const url = testDatabaseUrl('runtime_pg_sql_client');
let pool: pg.Pool;
beforeAll(async () => {
  await ensureDatabase(url);
  // One connection, so every call below meets the same session's prepared statements.
  pool = new pg.Pool({ connectionString: url, max: 1 });
});
afterAll(() => pool.end());

const prepared = async () =>
  (await pool.query<{ name: string; statement: string }>('SELECT name, statement FROM pg_prepared_statements ORDER BY name')).rows;

describe('pgSqlClient', () => {
  it('sends a statement by one name per text when named, and answers as the unnamed client does', async () => {
    const named = pgSqlClient(pool, undefined, { named: true });
    const plain = pgSqlClient(pool);
    const text = 'SELECT $1::int + 1 AS "next" /* named test */';
    expect(await named.$queryRawUnsafe(text, 1)).toEqual([{ next: 2 }]);
    expect(await named.$queryRawUnsafe(text, 41)).toEqual([{ next: 42 }]);
    expect(await plain.$queryRawUnsafe('SELECT $1::int + 2 AS "next" /* plain test */', 1)).toEqual([{ next: 3 }]);

    const statements = await prepared();
    const ours = statements.filter((s) => s.statement.includes('named test'));
    expect(ours).toHaveLength(1);
    expect(ours[0]?.name).toMatch(/^s[0-9a-f]{16}$/);
    expect(statements.some((s) => s.statement.includes('plain test'))).toBe(false);
  });
});
