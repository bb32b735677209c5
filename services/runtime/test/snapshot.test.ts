import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDatabase } from '../src/db/database';
import { upsertNewerSnapshot } from '../src/db/snapshot';
import { testDatabaseUrl } from '@hoptrack/testing';
import { pgSqlClient } from '../src/db/pg-sql-client';

const url = testDatabaseUrl('runtime_snapshot');
let pool: pg.Pool;

beforeAll(async () => {
  await ensureDatabase(url);
  pool = new pg.Pool({ connectionString: url });
  await pool.query('DROP TABLE IF EXISTS "people"');
  await pool.query('CREATE TABLE "people" (id UUID PRIMARY KEY, name TEXT NOT NULL, updated_at TIMESTAMPTZ NOT NULL)');
});
afterAll(() => pool.end());

const stored = async (id: string) => (await pool.query('SELECT name FROM people WHERE id = $1', [id])).rows[0]?.name;

describe('upsertNewerSnapshot', () => {
  it('inserts, lets a newer snapshot win and ignores an older one', async () => {
    const db = pgSqlClient(pool);
    const id = randomUUID();
    await upsertNewerSnapshot(db, 'people', { id, name: 'first', updated_at: new Date('2026-01-01T00:00:00Z') });
    expect(await stored(id)).toBe('first');
    await upsertNewerSnapshot(db, 'people', { id, name: 'third', updated_at: new Date('2026-01-03T00:00:00Z') });
    await upsertNewerSnapshot(db, 'people', { id, name: 'second (late)', updated_at: new Date('2026-01-02T00:00:00Z') });
    expect(await stored(id)).toBe('third');
    // A redelivery of the same snapshot is harmless.
    await upsertNewerSnapshot(db, 'people', { id, name: 'third', updated_at: new Date('2026-01-03T00:00:00Z') });
    expect(await stored(id)).toBe('third');
  });

  it('refuses names that are not plain SQL identifiers', async () => {
    const db = pgSqlClient(pool);
    await expect(upsertNewerSnapshot(db, 'people; DROP TABLE people', { id: randomUUID(), updated_at: new Date() })).rejects.toThrow(/identifier/);
    await expect(upsertNewerSnapshot(db, 'people', { id: randomUUID(), 'name"': 'x', updated_at: new Date() })).rejects.toThrow(/identifier/);
  });
});
