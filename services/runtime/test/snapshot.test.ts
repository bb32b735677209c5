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
  await pool.query('CREATE TABLE "people" (id UUID PRIMARY KEY, name TEXT NOT NULL, version INTEGER NOT NULL, updated_at TIMESTAMPTZ NOT NULL)');
});
afterAll(() => pool.end());

const stored = async (id: string) => (await pool.query('SELECT name FROM people WHERE id = $1', [id])).rows[0]?.name;

const at = (day: number) => new Date(`2026-01-0${day}T00:00:00Z`);

describe('upsertNewerSnapshot', () => {
  it('orders by version: a higher version wins whatever its clock said, a lower one is ignored, a redelivery changes nothing', async () => {
    const db = pgSqlClient(pool);
    const id = randomUUID();
    await upsertNewerSnapshot(db, 'people', { id, name: 'first', version: 1, updated_at: at(5) });
    expect(await stored(id)).toBe('first');
    // Written by a replica whose clock is days behind: still the later change.
    await upsertNewerSnapshot(db, 'people', { id, name: 'third', version: 3, updated_at: at(1) });
    // Arrives late, with the newest clock of all: still the older change.
    await upsertNewerSnapshot(db, 'people', { id, name: 'second (late)', version: 2, updated_at: at(9) });
    expect(await stored(id)).toBe('third');
    await upsertNewerSnapshot(db, 'people', { id, name: 'third, again', version: 3, updated_at: at(1) });
    expect(await stored(id)).toBe('third');
  });

  it('keeps the clock order among snapshots published before versions (0), and lets any versioned one replace them', async () => {
    const db = pgSqlClient(pool);
    const id = randomUUID();
    await upsertNewerSnapshot(db, 'people', { id, name: 'old first', version: 0, updated_at: at(1) });
    await upsertNewerSnapshot(db, 'people', { id, name: 'old third', version: 0, updated_at: at(3) });
    await upsertNewerSnapshot(db, 'people', { id, name: 'old second (late)', version: 0, updated_at: at(2) });
    expect(await stored(id)).toBe('old third');
    await upsertNewerSnapshot(db, 'people', { id, name: 'versioned', version: 1, updated_at: at(1) });
    expect(await stored(id)).toBe('versioned');
    // An unversioned snapshot never replaces a versioned one, whatever its clock.
    await upsertNewerSnapshot(db, 'people', { id, name: 'old, late', version: 0, updated_at: at(9) });
    expect(await stored(id)).toBe('versioned');
  });

  it('refuses names that are not plain SQL identifiers', async () => {
    const db = pgSqlClient(pool);
    await expect(upsertNewerSnapshot(db, 'people; DROP TABLE people', { id: randomUUID(), version: 1, updated_at: new Date() })).rejects.toThrow(/not a column or table name/);
    await expect(upsertNewerSnapshot(db, 'people', { id: randomUUID(), 'name"': 'x', version: 1, updated_at: new Date() })).rejects.toThrow(/not a column or table name/);
  });
});
