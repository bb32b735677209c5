import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EventData, EventType } from '@hoptrack/proto';
import { memoryLogger, testDatabaseUrl, testUserSnapshot } from '@hoptrack/testing';
import { forgetEventsNaming } from '../src/audience/erased';
import { Outbox } from '../src/bus/outbox';
import { peopleNamed } from '../src/bus/people-named';
import { busMigrationDirs } from '../src/bus/tables';
import { ensureDatabase } from '../src/db/database';
import { migrate } from '../src/db/migrate';
import { pgSqlClient } from '../src/db/pg-sql-client';
import { platformMigrationDirs } from '../src/db/platform-parts';
import type { SqlClient, TransactionalSqlClient } from '../src/db/sql';

/**
 * Issue 41, item 5, step 1: an erasure's cost follows the person, not the
 * outbox's history. Every outbox row records the ids its event names
 * (`people`, GIN-indexed); forgetEventsNaming deletes by it. Against the real
 * Postgres, with the outbox as a service's database has it: the bus part's
 * table (a service's own first migration), then the platform's parts.
 */
const url = testDatabaseUrl('runtime_outbox_people');
const { logger } = memoryLogger('outbox-people', 'warn');
let pool: pg.Pool;
let db: TransactionalSqlClient;
const outbox = new Outbox('people');

const A = randomUUID();
const B = randomUUID();
const C = randomUUID();

/** An event as it was written before the column: the old INSERT, no people. */
async function insertOldRow<T extends EventType>(type: T, data: EventData<T>): Promise<string> {
  const { row } = outbox.prepare(type, data);
  const [id, subject, payload] = row;
  await pool.query('INSERT INTO "outbox" ("id", "subject", "payload") VALUES ($1::uuid, $2, $3::jsonb)', [id, subject, payload]);
  return id;
}

async function peopleOf(id: string): Promise<string[]> {
  const { rows } = await pool.query<{ people: string[] }>('SELECT "people"::text[] AS "people" FROM "outbox" WHERE "id" = $1::uuid', [id]);
  return [...(rows[0]?.people ?? [])].sort();
}

async function remainingIds(): Promise<string[]> {
  return (await pool.query<{ id: string }>('SELECT "id"::text AS "id" FROM "outbox" ORDER BY "seq"')).rows.map((r) => r.id);
}

const friendship = (requesterId: string, recipientId: string) => ({ friendshipId: randomUUID(), requesterId, recipientId });
let before: { named: string; both: string; embedded: string; deleted: string; nobody: string };

beforeAll(async () => {
  await ensureDatabase(url);
  pool = new pg.Pool({ connectionString: url, max: 4 });
  db = pgSqlClient(pool);
  // A database as it stood before the column: the outbox of a service's first migration, with rows in it.
  await pool.query('DROP TABLE IF EXISTS "outbox", "processed_events", "idempotent_requests", "consumer_positions", "stream_purges", "_prisma_migrations" CASCADE');
  const [busPart] = busMigrationDirs();
  if (!busPart) throw new Error('no bus migration part');
  await migrate({ connectionString: url, migrationsDir: busPart, logger });
  before = {
    named: await insertOldRow('user.updated.v1', testUserSnapshot(A)),
    both: await insertOldRow('social.friendship.requested.v1', friendship(A, B)),
    // B only inside a longer string (a file key under their id): the strpos found it, so must the column.
    embedded: await insertOldRow('user.updated.v1', testUserSnapshot(C, { avatar: `/files/avatars/${B}/me.jpg` })),
    deleted: await insertOldRow('user.deleted.v1', { userId: C }),
    nobody: (await pool.query<{ id: string }>(`INSERT INTO "outbox" ("id", "subject", "payload") VALUES (gen_random_uuid(), 'x', '{"data":{"n":1}}') RETURNING "id"::text AS "id"`)).rows[0]?.id ?? '',
  };
  // Then every service's migrations as migrateDatabase applies them: the platform's parts with it.
  const [first, ...rest] = platformMigrationDirs();
  if (!first) throw new Error('the platform has no migration parts');
  await migrate({ connectionString: url, migrationsDir: busPart, include: [first, ...rest], logger });
});
afterAll(() => pool.end());

describe('the outbox names the people of each event', () => {
  it('fills people for the rows written before the migration, as enqueue does', async () => {
    expect(await peopleOf(before.named)).toContain(A);
    expect(await peopleOf(before.both)).toEqual(expect.arrayContaining([A, B]));
    expect(await peopleOf(before.embedded)).toEqual(expect.arrayContaining([B, C]));
    // The deletion itself names the person too: auth's row of it goes at the scrub.
    expect(await peopleOf(before.deleted)).toEqual([C]);
    expect(await peopleOf(before.nobody)).toEqual([]);
    // The same ids the runtime writes at enqueue, from the same data.
    const { rows } = await pool.query<{ id: string; data: unknown }>(`SELECT "id"::text AS "id", "payload"->'data' AS "data" FROM "outbox"`);
    for (const row of rows) expect(await peopleOf(row.id)).toEqual([...peopleNamed(row.data)].sort());
  });

  describe('forgetEventsNaming', () => {
    beforeEach(() => pool.query('TRUNCATE "outbox"'));

    it('deletes exactly the rows naming the person, published or not, through the people index', async () => {
      const enqueue = <T extends EventType>(type: T, data: EventData<T>) => db.$transaction((tx) => outbox.enqueue(tx, type, data)).then((e) => e.id);
      await enqueue('user.updated.v1', testUserSnapshot(A));
      const ofB = await enqueue('user.updated.v1', testUserSnapshot(B));
      const ofBoth = await enqueue('social.friendship.accepted.v1', friendship(B, A));
      const ofC = await enqueue('user.updated.v1', testUserSnapshot(C, { avatar: `/files/avatars/${A}/me.jpg` }));
      const publishedOfA = await enqueue('user.updated.v1', testUserSnapshot(A, { displayName: 'published' }));
      await pool.query('UPDATE "outbox" SET "published_at" = now() WHERE "id" = $1::uuid', [publishedOfA]);
      expect(await peopleOf(ofBoth)).toEqual(expect.arrayContaining([A, B]));
      expect(await peopleOf(ofC)).toEqual(expect.arrayContaining([A, C]));

      await forgetEventsNaming(db, [A.toUpperCase()]);
      expect(await remainingIds()).toEqual([ofB]);
    });

    it("looks the person up in the index, not through the outbox's history", async () => {
      // An outbox with a history: 20,000 published rows about others, each the size of a user snapshot's
      // envelope (about 600 bytes), then statistics, as autovacuum keeps them.
      await pool.query(`INSERT INTO "outbox" ("id", "subject", "payload", "people", "published_at")
        SELECT gen_random_uuid(), 'x', jsonb_build_object('data', jsonb_build_object('bio', repeat('x', 600))), ARRAY[gen_random_uuid(), gen_random_uuid()], now()
        FROM generate_series(1, 20000)`);
      await db.$transaction((tx) => outbox.enqueue(tx, 'user.updated.v1', testUserSnapshot(A)));
      await pool.query('ANALYZE "outbox"');
      const plans: string[] = [];
      await forgetEventsNaming(explaining(db, plans), [A]);
      expect(plans).toHaveLength(1);
      expect(plans[0]).toContain('outbox_people_idx');
      expect(plans[0]).not.toContain('Seq Scan');
    });

    it('waits for a row the relay is publishing (locked), then deletes it', async () => {
      const id = await db.$transaction((tx) => outbox.enqueue(tx, 'user.updated.v1', testUserSnapshot(A))).then((e) => e.id);
      const relay = await pool.connect();
      try {
        await relay.query('BEGIN');
        await relay.query('SELECT 1 FROM "outbox" WHERE "id" = $1::uuid FOR UPDATE', [id]);
        const forgetting = forgetEventsNaming(db, [A]);
        // The delete is blocked on the relay's row lock until it commits.
        const waiting = async () =>
          (await pool.query<{ n: number }>(`SELECT count(*)::int AS "n" FROM pg_stat_activity WHERE "datname" = current_database() AND "wait_event_type" = 'Lock'`)).rows[0]?.n;
        await expect.poll(waiting).toBe(1);
        expect(await remainingIds()).toEqual([id]);
        await relay.query('COMMIT');
        await forgetting;
      } finally {
        relay.release();
      }
      expect(await remainingIds()).toEqual([]);
    });
  });
});

/** A client that runs nothing: it records the plan of each statement it is given (EXPLAIN, with the same values). */
function explaining(inner: SqlClient, plans: string[]): SqlClient {
  const explain = async (query: string, values: unknown[]) => {
    const rows = await inner.$queryRawUnsafe<Array<{ 'QUERY PLAN': string }>>(`EXPLAIN ${query}`, ...values);
    plans.push(rows.map((r) => r['QUERY PLAN']).join('\n'));
  };
  return {
    $executeRawUnsafe: async (query, ...values) => {
      await explain(query, values);
      return 0;
    },
    $queryRawUnsafe: async <T,>(query: string, ...values: unknown[]) => {
      await explain(query, values);
      return [] as T;
    },
  };
}
