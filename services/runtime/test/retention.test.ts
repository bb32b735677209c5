import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/db/migrate';
import { pruneStores } from '../src/db/retention';
import { busMigrationDirs } from '../src/bus/tables';
import { memoryLogger } from '@hoptrack/testing';
import { requestsDatabase } from './requests-db';

/**
 * Issue 38, item 8: the platform's stores are bounded. Against the real
 * Postgres: published outbox rows past the streams' age, inbox rows past it
 * and a day, and Idempotency-Key answers past 24 hours are deleted, a batch
 * at a time; everything younger, and every outbox row not yet published,
 * stays.
 */
let database: Awaited<ReturnType<typeof requestsDatabase>>;
const DAY = 24 * 3600_000;
const now = new Date('2026-11-27T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

beforeAll(async () => {
  database = await requestsDatabase('runtime_retention');
  const url = (database.pool.options as { connectionString: string }).connectionString;
  const [bus] = busMigrationDirs();
  if (!bus) throw new Error('no bus migration part');
  await migrate({ connectionString: url, migrationsDir: bus, logger: memoryLogger('retention').logger });
});
afterAll(() => database.close());

async function count(table: string): Promise<number> {
  return (await database.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}"`)).rows[0]?.n ?? 0;
}

describe('pruneStores', () => {
  it('deletes what is past its use, in batches, and keeps the rest', async () => {
    const { pool } = database;
    await pool.query('TRUNCATE "outbox", "processed_events", "idempotent_requests", "stream_purges"');
    // 12,000 published long ago (more than two batches), 5 published yesterday, 3 never published (even older).
    await pool.query(
      `INSERT INTO "outbox" (id, subject, payload, created_at, published_at)
       SELECT gen_random_uuid(), 'x', '{}', $1, $1 FROM generate_series(1, 12000)`,
      [ago(8 * DAY)],
    );
    await pool.query(`INSERT INTO "outbox" (id, subject, payload, created_at, published_at) SELECT gen_random_uuid(), 'x', '{}', $1, $1 FROM generate_series(1, 5)`, [ago(DAY)]);
    await pool.query(`INSERT INTO "outbox" (id, subject, payload, created_at) SELECT gen_random_uuid(), 'x', '{}', $1 FROM generate_series(1, 3)`, [ago(30 * DAY)]);
    // The inbox: 7 days and a half is still inside the stream's age and a day; 9 days is not.
    await pool.query(`INSERT INTO "processed_events" (consumer, event_id, processed_at) SELECT 'c', gen_random_uuid(), $1 FROM generate_series(1, 4)`, [ago(9 * DAY)]);
    await pool.query(`INSERT INTO "processed_events" (consumer, event_id, processed_at) SELECT 'c', gen_random_uuid(), $1 FROM generate_series(1, 2)`, [ago(7.5 * DAY)]);
    // Queued purges: past the streams' age the age limit took their messages (3 go); a day old they wait (1 stays).
    await pool.query(`INSERT INTO "stream_purges" (stream, seq, subject, queued_at) SELECT 'S', i, 'x', $1 FROM generate_series(1, 3) AS i`, [ago(8 * DAY)]);
    await pool.query(`INSERT INTO "stream_purges" (stream, seq, subject, queued_at) VALUES ('S', 4, 'x', $1)`, [ago(DAY)]);
    // Answers: 25 hours old go, 23 hours old stay.
    await pool.query(
      `INSERT INTO "idempotent_requests" (scope, key, fingerprint, status, body, locked_until, created_at)
       SELECT 's', 'old-' || i, 'f', 201, '{}', $1, $1 FROM generate_series(1, 6) AS i`,
      [ago(25 * 3600_000)],
    );
    await pool.query(`INSERT INTO "idempotent_requests" (scope, key, fingerprint, status, body, locked_until, created_at) VALUES ('s', 'new', 'f', 201, '{}', $1, $1)`, [
      ago(23 * 3600_000),
    ]);

    expect(await pruneStores(database.db, now)).toEqual({ outbox: 12000, processed_events: 4, stream_purges: 3, idempotent_requests: 6 });
    expect(await count('outbox')).toBe(8);
    expect((await pool.query('SELECT count(*)::int AS n FROM "outbox" WHERE published_at IS NULL')).rows[0]).toEqual({ n: 3 });
    expect(await count('processed_events')).toBe(2);
    expect(await count('idempotent_requests')).toBe(1);
    expect(await count('stream_purges')).toBe(1);
    // A second pass finds nothing more.
    expect(await pruneStores(database.db, now)).toEqual({ outbox: 0, processed_events: 0, stream_purges: 0, idempotent_requests: 0 });
  });
});
