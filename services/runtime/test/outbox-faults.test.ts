import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { streamNameFor, type UserSnapshot } from '@hoptrack/proto';
import { connectBus, deleteStreams, ensureStreams, type Bus } from '../src/bus/connection';
import { Outbox, OutboxRelay } from '../src/bus/outbox';
import { INBOX_TABLE_SQL, OUTBOX_TABLE_SQL } from '../src/bus/tables';
import { ensureDatabase } from '../src/db/database';
import type { SqlClient, TransactionalSqlClient } from '../src/db/sql';
import { testDatabaseUrl, testNamespace, readEvents, memoryLogger, testUserSnapshot } from '@hoptrack/testing';
import { pgSqlClient } from '../src/db/pg-sql-client';

/**
 * Faults of the outbox (issue 9, items 2 and 3), with the figures
 * docs/reliability.md reports: many concurrent writers whose transactions
 * commit out of id order, and a relay that dies between publishing and
 * marking its rows.
 */
const url = testDatabaseUrl('runtime_outbox_faults');
const { logger } = memoryLogger('outbox-faults', 'warn');
let pool: pg.Pool;
let bus: Bus;

const WRITERS = 50;
const EVENTS_PER_WRITER = 20;

beforeAll(async () => {
  await ensureDatabase(url);
  // One connection per writer, plus the relays'.
  pool = new pg.Pool({ connectionString: url, max: WRITERS + 5 });
  await pool.query(`${OUTBOX_TABLE_SQL}${INBOX_TABLE_SQL}`);
  bus = await connectBus({ url: 'nats://127.0.0.1:4222', name: 'outbox-faults', namespace: testNamespace('outboxfaults'), logger });
  await ensureStreams(bus, ['USERS']);
});
beforeEach(() => pool.query('TRUNCATE "outbox"'));
afterAll(async () => {
  await deleteStreams(bus);
  await bus.close();
  await pool.end();
});

const publishedIds = async (): Promise<string[]> => (await readEvents(bus, 'USERS', 'user.updated.v1')).map((e) => e.data.id);

describe('outbox under faults', () => {
  it(`publishes every event exactly once from ${WRITERS} concurrent writers whose transactions commit out of order`, async () => {
    const db = pgSqlClient(pool);
    const outbox = new Outbox(bus.namespace);
    const relay = new OutboxRelay({ db, bus, logger, pollMs: 5, batchSize: 50 });
    relay.start();
    const written: string[] = [];
    const writer = async () => {
      for (let i = 0; i < EVENTS_PER_WRITER; i++) {
        const user: UserSnapshot = testUserSnapshot(randomUUID());
        // The row gets its serial at INSERT; holding the transaction open for a
        // varied time makes later serials commit before earlier ones.
        await db.$transaction(async (tx) => {
          await outbox.enqueue(tx, 'user.updated.v1', user);
          await tx.$executeRawUnsafe(`SELECT pg_sleep(${(Math.random() * 0.03).toFixed(3)})`);
        });
        written.push(user.id);
        relay.poke();
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, writer));
    await relay.drain();
    await relay.stop();

    const published = await publishedIds();
    const lost = written.filter((id) => !published.includes(id));
    const doubled = published.length - new Set(published).size;
    console.info(`[figure] outbox, ${WRITERS} concurrent writers: events lost ${lost.length} of ${written.length}, published twice ${doubled}`);
    expect(written).toHaveLength(WRITERS * EVENTS_PER_WRITER);
    expect(lost).toEqual([]);
    expect(doubled).toBe(0);
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL');
    expect(rows[0]?.n).toBe(0);
  });

  it('a relay killed after publishing and before marking: the next relay re-publishes, JetStream drops the duplicates', async () => {
    const db = pgSqlClient(pool);
    const outbox = new Outbox(bus.namespace);
    const users = Array.from({ length: 100 }, () => testUserSnapshot(randomUUID()));
    for (const user of users) await outbox.enqueue(db, 'user.updated.v1', user);
    const before = (await bus.jsm.streams.info(streamNameFor(bus.namespace, 'USERS'))).state.messages;

    // The dying relay: its transaction publishes every row, then fails to mark them (the process died).
    const dying: TransactionalSqlClient = {
      ...db,
      $transaction: (fn) =>
        db.$transaction(async (tx) => {
          const failingMark: SqlClient = {
            ...tx,
            $executeRawUnsafe: async (query, ...values) => {
              if (query.startsWith('UPDATE "outbox"')) throw new Error('killed before marking');
              return tx.$executeRawUnsafe(query, ...values);
            },
          };
          return fn(failingMark);
        }),
    };
    await expect(new OutboxRelay({ db: dying, bus, logger }).drain()).rejects.toThrow('killed before marking');
    const { rows: unmarked } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL');
    expect(unmarked[0]?.n).toBe(100);

    // The next relay (after the restart) publishes the same rows again, with the same msg ids.
    await new OutboxRelay({ db, bus, logger }).drain();
    const after = (await bus.jsm.streams.info(streamNameFor(bus.namespace, 'USERS'))).state.messages;
    const ids = new Set(users.map((u) => u.id));
    const copies = (await publishedIds()).filter((id) => ids.has(id));
    console.info(`[figure] relay killed before marking: ${after - before} stream messages for 100 events, ${copies.length - ids.size} duplicates kept`);
    expect(after - before).toBe(100);
    expect(copies).toHaveLength(100);
    expect(new Set(copies).size).toBe(100);
  });
});
