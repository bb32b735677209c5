import { randomUUID } from 'node:crypto';
import { streamNameFor } from '@hoptrack/proto';
import { AckPolicy, DeliverPolicy } from 'nats';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReadModelBarrier } from '../src/bus/barrier';
import { connectBus, deleteStreams, ensureStreams, type Bus } from '../src/bus/connection';
import { sqlInbox, startConsumer } from '../src/bus/consumer';
import { Outbox, OutboxRelay } from '../src/bus/outbox';
import { INBOX_TABLE_SQL, OUTBOX_TABLE_SQL } from '../src/bus/tables';
import { ensureDatabase } from '../src/db/database';
import { testDatabaseUrl, testNamespace, memoryLogger, testUserSnapshot } from '@hoptrack/testing';
import { pgSqlClient } from '../src/db/pg-sql-client';

/** The read-your-writes barrier: it answers once every durable consumer applied the events, or after its bound. */
const url = testDatabaseUrl('runtime_barrier');
const { logger, lines } = memoryLogger('barrier-test', 'warn');
let pool: pg.Pool;
let bus: Bus;

beforeAll(async () => {
  await ensureDatabase(url);
  pool = new pg.Pool({ connectionString: url });
  await pool.query(`${OUTBOX_TABLE_SQL}${INBOX_TABLE_SQL}`);
  bus = await connectBus({ url: 'nats://127.0.0.1:4222', name: 'barrier-test', namespace: testNamespace('barrier'), logger });
  await ensureStreams(bus, ['USERS']);
});
afterAll(async () => {
  await deleteStreams(bus);
  await bus.close();
  await pool.end();
});

describe('ReadModelBarrier', () => {
  it('answers once the consumer applied the event, not before', async () => {
    const db = pgSqlClient(pool);
    const relay = new OutboxRelay({ db, bus, logger });
    const applied = new Set<string>();
    const consumer = await startConsumer({
      bus,
      stream: 'USERS',
      durable: `slow-${randomUUID().slice(0, 8)}`,
      logger,
      handlers: {
        'user.updated.v1': async (event) => {
          // A read model that takes its time.
          await new Promise((r) => setTimeout(r, 150));
          applied.add(event.id);
        },
      },
    });
    try {
      const barrier = new ReadModelBarrier({ db, bus, relay, logger, timeoutMs: 5000 });
      const envelope = await new Outbox(bus.namespace).enqueue(db, 'user.updated.v1', testUserSnapshot(randomUUID()));
      // The relay is not running: the barrier publishes the event itself.
      expect(await barrier.await([envelope.id], 'USERS')).toBe(true);
      expect(applied.has(envelope.id)).toBe(true);
    } finally {
      await consumer.stop();
    }
  });

  it('answers once a batching consumer (with its inbox) applied the event behind a backlog, within its bound', async () => {
    const db = pgSqlClient(pool);
    const relay = new OutboxRelay({ db, bus, logger });
    const outbox = new Outbox(bus.namespace);
    // A backlog ahead of the barrier's event: it is applied in a batch, acknowledged after that batch's commit.
    for (let i = 0; i < 40; i++) await outbox.enqueue(db, 'user.updated.v1', testUserSnapshot(randomUUID()));
    await relay.drain();
    const applied = new Set<string>();
    let transactions = 0;
    const counted: typeof db = { ...db, $transaction: (fn, o) => ((transactions += 1), db.$transaction(fn, o)) };
    const consumer = await startConsumer({
      bus,
      stream: 'USERS',
      durable: `batched-${randomUUID().slice(0, 8)}`,
      logger,
      inbox: sqlInbox(counted),
      handlers: { 'user.updated.v1': async (event) => void applied.add(event.id) },
    });
    try {
      const barrier = new ReadModelBarrier({ db, bus, relay, logger, timeoutMs: 10_000 });
      const envelope = await outbox.enqueue(db, 'user.updated.v1', testUserSnapshot(randomUUID()));
      expect(await barrier.await([envelope.id], 'USERS')).toBe(true);
      expect(applied.has(envelope.id)).toBe(true);
      // It went through batches (fewer transactions than events), not one at a time.
      expect(transactions).toBeLessThan(applied.size);
    } finally {
      await consumer.stop();
    }
  });

  it('waits for a live reader that is between two pulls when it looks (the moment after an ack, before its next pull)', async () => {
    const db = pgSqlClient(pool);
    const relay = new OutboxRelay({ db, bus, logger });
    const outbox = new Outbox(bus.namespace);
    const stream = streamNameFor(bus.namespace, 'USERS');
    const durable = `between-${randomUUID().slice(0, 8)}`;
    await bus.jsm.consumers.add(stream, { durable_name: durable, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.New, ack_wait: 30_000_000_000 });
    const reader = await bus.js.consumers.get(stream, durable);
    // The reader holds an event (unacked) when the barrier starts, as a consumer in the middle of a batch does.
    await outbox.enqueue(db, 'user.updated.v1', testUserSnapshot(randomUUID()));
    await relay.drain();
    const held = await reader.next({ expires: 5000 });
    if (!held) throw new Error('the reader got no event');
    const envelope = await outbox.enqueue(db, 'user.updated.v1', testUserSnapshot(randomUUID()));
    let applied = false;
    const barrier = new ReadModelBarrier({ db, bus, relay, logger, timeoutMs: 10_000 });
    const answered = barrier.await([envelope.id], 'USERS').then((result) => ({ result, applied }));
    // Past the barrier's 250 ms it acknowledges and pulls again 60 ms later: in between it has nothing pending,
    // nothing delivered and no pull waiting, which one look took for a consumer nobody reads.
    await new Promise((r) => setTimeout(r, 300));
    await held.ackAck();
    // Well under the 250 ms a reader must look unread for: a busy machine's stall has room before this test lies.
    await new Promise((r) => setTimeout(r, 60));
    const next = await reader.next({ expires: 5000 });
    if (next?.seq) {
      applied = true;
      await next.ackAck();
    }
    expect(await answered).toEqual({ result: true, applied: true });
  });

  it('does not wait for a durable consumer nobody reads (a retired service), and says so', async () => {
    const db = pgSqlClient(pool);
    const relay = new OutboxRelay({ db, bus, logger });
    // A durable that exists on the stream with no process pulling from it.
    await bus.jsm.consumers.add(streamNameFor(bus.namespace, 'USERS'), { durable_name: `gone-${randomUUID().slice(0, 8)}`, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All });
    const barrier = new ReadModelBarrier({ db, bus, relay, logger, timeoutMs: 5000 });
    const envelope = await new Outbox(bus.namespace).enqueue(db, 'user.updated.v1', testUserSnapshot(randomUUID()));
    const started = Date.now();
    expect(await barrier.await([envelope.id], 'USERS')).toBe(true);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(lines.some((l) => l.msg === 'barrier: consumers nobody reads were not waited for')).toBe(true);
  });

  it('gives up after its bound when a read model is stuck, and says so', async () => {
    const db = pgSqlClient(pool);
    const relay = new OutboxRelay({ db, bus, logger });
    let release: () => void = () => undefined;
    const stuck = new Promise<void>((resolve) => (release = resolve));
    const consumer = await startConsumer({
      bus,
      stream: 'USERS',
      durable: `stuck-${randomUUID().slice(0, 8)}`,
      logger,
      ackWaitMs: 30_000,
      handlers: { 'user.updated.v1': () => stuck },
    });
    try {
      const barrier = new ReadModelBarrier({ db, bus, relay, logger, timeoutMs: 400 });
      const envelope = await new Outbox(bus.namespace).enqueue(db, 'user.updated.v1', testUserSnapshot(randomUUID()));
      const started = Date.now();
      expect(await barrier.await([envelope.id], 'USERS')).toBe(false);
      expect(Date.now() - started).toBeGreaterThanOrEqual(400);
      expect(lines.some((l) => l.msg === 'read models did not catch up in time; answering anyway')).toBe(true);
    } finally {
      release();
      await consumer.stop();
    }
  });
});
