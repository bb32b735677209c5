import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { streamNameFor, type UserSnapshot } from '@hoptrack/proto';
import { connectBus, deleteStreams, ensureStreams, type Bus } from '../src/bus/connection';
import { startConsumer } from '../src/bus/consumer';
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

  /**
   * A relay dies after publishing 100 rows and before marking them; the next one publishes them
   * again. `msgIdOf` is what the relay's publishes carry as JetStream's msg id: the event's id (as
   * the relay does), or — the negative control — a new id per publish, which leaves JetStream's
   * duplicate window nothing to recognise.
   */
  const killedBeforeMarking = async (msgIdOf: (eventId: string) => string) => {
    const db = pgSqlClient(pool);
    const outbox = new Outbox(bus.namespace);
    const users = Array.from({ length: 100 }, () => testUserSnapshot(randomUUID()));
    for (const user of users) await outbox.enqueue(db, 'user.updated.v1', user);
    const before = (await bus.jsm.streams.info(streamNameFor(bus.namespace, 'USERS'))).state.messages;
    const relayBus: Bus = { ...bus, publish: (subject, payload, msgId) => bus.publish(subject, payload, msgIdOf(msgId)) };

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
    await expect(new OutboxRelay({ db: dying, bus: relayBus, logger }).drain()).rejects.toThrow('killed before marking');
    const { rows: unmarked } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL');
    expect(unmarked[0]?.n).toBe(100);

    // The next relay (after the restart) publishes the same rows again.
    await new OutboxRelay({ db, bus: relayBus, logger }).drain();
    const after = (await bus.jsm.streams.info(streamNameFor(bus.namespace, 'USERS'))).state.messages;
    const ids = new Set(users.map((u) => u.id));
    const copies = (await publishedIds()).filter((id) => ids.has(id));
    return { stored: after - before, copies: copies.length, distinct: new Set(copies).size };
  };

  it('a relay killed after publishing and before marking: the next relay re-publishes, JetStream drops the duplicates', async () => {
    const { stored, copies, distinct } = await killedBeforeMarking((eventId) => eventId);
    console.info(`[figure] relay killed before marking: ${stored} stream messages for 100 events, ${copies - distinct} duplicates kept`);
    expect(stored).toBe(100);
    expect(copies).toBe(100);
    expect(distinct).toBe(100);
  });

  it('control: with a new msg id on each publish, the same death leaves every event twice in the stream', async () => {
    const { stored, copies, distinct } = await killedBeforeMarking(() => randomUUID());
    console.info(`[figure] control, relay killed before marking with a msg id per publish: ${stored} stream messages for 100 events, ${copies - distinct} duplicates kept`);
    expect(stored).toBe(200);
    expect(copies - distinct).toBe(100);
  });
});

/**
 * The relay's "published" mark commits after the publish, asynchronously
 * (issue 41): here it fails mid-work, while writers still write. The third
 * batch's mark loses its connection (its backend terminated, as when
 * Postgres restarts or the process dies with its transaction open), the
 * relaying process dies with it, and a new relay (the restart) takes over.
 * A consumer without an inbox counts how often it applies each event,
 * against the events whose writes the writers were told committed.
 */
describe('a relay whose mark is lost after publishing', () => {
  const MARK_WRITERS = 10;
  const EVENTS_EACH = 30;
  const KILLED_BATCH = 3;

  const relayThroughLostMark = async (msgIdOf: (eventId: string) => string) => {
    const db = pgSqlClient(pool);
    const outbox = new Outbox(bus.namespace);
    const relayBus: Bus = { ...bus, publish: (subject, payload, msgId) => bus.publish(subject, payload, msgIdOf(msgId)) };
    const applied = new Map<string, number>();
    const generated = new Set<string>();
    const durable = `lost-mark-${randomUUID().slice(0, 8)}`;
    const consumer = await startConsumer({
      bus,
      stream: 'USERS',
      durable,
      logger,
      // The stream holds the earlier tests' events too: only this run's count.
      handlers: { 'user.updated.v1': async (event) => void (generated.has(event.data.id) && applied.set(event.data.id, (applied.get(event.data.id) ?? 0) + 1)) },
    });

    // The dying process's relay: its third mark's backend is terminated, then nothing of it answers again.
    let marks = 0;
    let dead = false;
    const lostRows: string[] = [];
    const dying: TransactionalSqlClient = {
      ...db,
      $transaction: (fn, options) => {
        if (dead) return Promise.reject(new Error('the relaying process is gone'));
        return db.$transaction(async (tx) => {
          const [{ pid } = { pid: 0 }] = await tx.$queryRawUnsafe<Array<{ pid: number }>>('SELECT pg_backend_pid() AS "pid"');
          const killingTheMark: SqlClient = {
            ...tx,
            $executeRawUnsafe: async (query, ...values) => {
              if (query.startsWith('UPDATE "outbox"') && ++marks === KILLED_BATCH) {
                dead = true;
                lostRows.push(...(values[0] as string[]));
                // Waits until the backend is gone: the mark's statement then meets a dead connection.
                await pool.query('SELECT pg_terminate_backend($1, 10000)', [pid]);
              }
              return tx.$executeRawUnsafe(query, ...values);
            },
          };
          return fn(killingTheMark);
        }, options);
      },
    };
    const relay = new OutboxRelay({ db: dying, bus: relayBus, logger, pollMs: 5, batchSize: 20 });
    relay.start();
    const told: string[] = [];
    const writer = async () => {
      for (let i = 0; i < EVENTS_EACH; i++) {
        const user: UserSnapshot = testUserSnapshot(randomUUID());
        generated.add(user.id);
        await db.$transaction(async (tx) => {
          await outbox.enqueue(tx, 'user.updated.v1', user);
          await tx.$executeRawUnsafe(`SELECT pg_sleep(${(Math.random() * 0.01).toFixed(3)})`);
        });
        told.push(user.id);
        relay.poke();
      }
    };
    const writing = Promise.all(Array.from({ length: MARK_WRITERS }, writer));
    try {
      // The fault lands while the writers write.
      await expect.poll(() => dead, { timeout: 30_000 }).toBe(true);
      const toldAtFault = told.length;
      await writing;
      await relay.stop();
      const { rows: unmarked } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox WHERE id = ANY($1::uuid[]) AND published_at IS NULL', [lostRows]);

      // The restart: a new relay publishes what is left, the lost mark's rows among it.
      await new OutboxRelay({ db, bus: relayBus, logger }).drain();
      const stream = streamNameFor(bus.namespace, 'USERS');
      await expect
        .poll(async () => {
          const info = await bus.jsm.consumers.info(stream, durable);
          return info.num_pending + info.num_ack_pending === 0 && told.every((id) => applied.has(id));
        }, { timeout: 30_000 })
        .toBe(true);
      const { rows: left } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL');
      return { told, toldAtFault, lostRows, unmarkedAfterFault: unmarked[0]?.n ?? -1, leftUnpublished: left[0]?.n ?? -1, applied };
    } finally {
      await writing.catch(() => undefined);
      await relay.stop();
      await consumer.stop();
      await bus.jsm.consumers.delete(streamNameFor(bus.namespace, 'USERS'), durable).catch(() => undefined);
    }
  };

  const doubles = (told: string[], applied: Map<string, number>) => told.filter((id) => (applied.get(id) ?? 0) > 1).length;

  it('the restarted relay publishes the rows again with the same msg ids: every event told is applied exactly once', async () => {
    const { told, toldAtFault, lostRows, unmarkedAfterFault, leftUnpublished, applied } = await relayThroughLostMark((eventId) => eventId);
    console.info(`[figure] relay's mark lost after publishing (${lostRows.length} rows, ${toldAtFault} of ${told.length} writes told when it died): applied twice ${doubles(told, applied)}, never ${told.filter((id) => !applied.has(id)).length}`);
    expect(told).toHaveLength(MARK_WRITERS * EVENTS_EACH);
    // The fault was mid-work: writes were still coming, and the lost mark had published rows that stayed unmarked.
    expect(toldAtFault).toBeLessThan(told.length);
    expect(lostRows.length).toBeGreaterThan(0);
    expect(unmarkedAfterFault).toBe(lostRows.length);
    expect(told.filter((id) => applied.get(id) !== 1)).toEqual([]);
    expect([...applied.keys()].filter((id) => !told.includes(id))).toEqual([]);
    expect(leftUnpublished).toBe(0);
  });

  it('control: republished with a new msg id each time, the lost mark\'s rows are applied twice', async () => {
    const { told, lostRows, applied } = await relayThroughLostMark(() => randomUUID());
    console.info(`[figure] control, lost mark with a msg id per publish: ${lostRows.length} rows lost their mark, applied twice ${doubles(told, applied)}`);
    expect(lostRows.length).toBeGreaterThan(0);
    expect(doubles(told, applied)).toBe(lostRows.length);
  });
});

describe('the mark off the publishing path', () => {
  it('publishes the next event while the previous batch\'s mark is still committing', async () => {
    const db = pgSqlClient(pool);
    const outbox = new Outbox(bus.namespace);
    // The first mark is held until the test lets it go; the ones after it run as usual.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let marks = 0;
    const slowMark: TransactionalSqlClient = {
      ...db,
      $transaction: (fn, options) =>
        db.$transaction(
          (tx) =>
            fn({
              ...tx,
              $executeRawUnsafe: async (query, ...values) => {
                if (query.startsWith('UPDATE "outbox"') && marks++ === 0) await held;
                return tx.$executeRawUnsafe(query, ...values);
              },
            }),
          options,
        ),
    };
    // No timer pass: only pokes publish.
    const relay = new OutboxRelay({ db: slowMark, bus, logger, pollMs: 600_000 });
    relay.start();
    try {
      const first = testUserSnapshot(randomUUID());
      const firstEvent = await outbox.enqueue(db, 'user.updated.v1', first);
      relay.poke();
      await expect.poll(() => marks).toBe(1);
      const second = testUserSnapshot(randomUUID());
      await outbox.enqueue(db, 'user.updated.v1', second);
      relay.poke();
      await expect.poll(async () => (await publishedIds()).includes(second.id)).toBe(true);
      // Published, and the second event's own mark commits, while the first's still waits.
      const unmarked = async () => (await pool.query<{ id: string }>('SELECT id::text AS id FROM outbox WHERE published_at IS NULL')).rows.map((r) => r.id);
      await expect.poll(unmarked).toEqual([firstEvent.id]);
    } finally {
      release();
      await relay.stop();
    }
    const { rows: left } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL');
    expect(left[0]?.n).toBe(0);
  });
});

describe('an idle relay', () => {
  it('looks for leftovers with one plain statement, opens no transaction while none wait, and still relays a row a crash left', async () => {
    const db = pgSqlClient(pool);
    let transactions = 0;
    let looks = 0;
    const counting: TransactionalSqlClient = {
      ...db,
      $queryRawUnsafe: (query, ...values) => {
        if (query.startsWith('SELECT 1 AS "one" FROM "outbox"')) looks += 1;
        return db.$queryRawUnsafe(query, ...values);
      },
      $transaction: (fn, options) => {
        transactions += 1;
        return db.$transaction(fn, options);
      },
    };
    const relay = new OutboxRelay({ db: counting, bus, logger, pollMs: 20 });
    relay.start();
    try {
      await expect.poll(() => looks, { timeout: 10_000 }).toBeGreaterThanOrEqual(10);
      // The start's own drain (a poke) is the one transaction; ten timer passes opened none.
      expect(transactions).toBeLessThanOrEqual(1);

      // A row committed by a process that died before poking its relay: the timer finds it.
      const user = testUserSnapshot(randomUUID());
      await new Outbox(bus.namespace).enqueue(db, 'user.updated.v1', user);
      await expect.poll(async () => (await publishedIds()).includes(user.id), { timeout: 10_000 }).toBe(true);
      expect(transactions).toBeGreaterThanOrEqual(2);
    } finally {
      await relay.stop();
    }
  });
});
