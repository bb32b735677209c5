import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { streamNameFor, type UserSnapshot } from '@hoptrack/proto';
import { connectBus, deleteStreams, ensureStreams, type Bus } from '../src/bus/connection';
import { sqlInbox, startConsumer } from '../src/bus/consumer';
import { startEffectConsumers } from '../src/bus/read-models';
import { instrumentBus } from '../src/bus/metrics';
import { discardDeadLetter, listDeadLetters, replayDeadLetter } from '../src/bus/dead-letters';
import { Outbox, OutboxRelay } from '../src/bus/outbox';
import { Registry } from 'prom-client';
import { INBOX_TABLE_SQL, OUTBOX_TABLE_SQL } from '../src/bus/tables';
import { ensureDatabase } from '../src/db/database';
import { consumerSettled, eventually, testDatabaseUrl, testNamespace, testUserSnapshot, readEvents, memoryLogger } from '@hoptrack/testing';
import { pgSqlClient } from '../src/db/pg-sql-client';

const url = testDatabaseUrl('runtime_bus');
const { logger, lines } = memoryLogger('bus-test', 'debug');
let pool: pg.Pool;
let bus: Bus;

const snapshot = (over: Partial<UserSnapshot> = {}): UserSnapshot => ({ ...testUserSnapshot(randomUUID()), ...over });


beforeAll(async () => {
  await ensureDatabase(url);
  pool = new pg.Pool({ connectionString: url });
  await pool.query(`${OUTBOX_TABLE_SQL}${INBOX_TABLE_SQL}
    CREATE TABLE IF NOT EXISTS "seen" ("user_id" UUID NOT NULL, "event_id" UUID NOT NULL)`);
  bus = await connectBus({ url: 'nats://127.0.0.1:4222', name: 'bus-test', namespace: testNamespace('bus'), logger });
  await ensureStreams(bus);
});
beforeEach(() => pool.query('TRUNCATE "outbox", "processed_events", "seen"'));
afterAll(async () => {
  await deleteStreams(bus);
  await bus.close();
  await pool.end();
});

describe('outbox', () => {
  it('publishes nothing for a rolled-back transaction', async () => {
    const db = pgSqlClient(pool);
    const outbox = new Outbox(bus.namespace);
    const user = snapshot();
    await expect(
      db.$transaction(async (tx) => {
        await outbox.enqueue(tx, 'user.registered.v1', user);
        throw new Error('domain write failed');
      }),
    ).rejects.toThrow('domain write failed');
    await new OutboxRelay({ db, bus, logger }).drain();
    expect((await readEvents(bus, 'USERS', 'user.registered.v1', 'user.updated.v1')).some((e) => e.data.id === user.id)).toBe(false);
  });

  it('refuses a payload that breaks the contract', async () => {
    const bad = { ...snapshot(), email: 42 } as unknown as UserSnapshot;
    await expect(new Outbox(bus.namespace).enqueue(pgSqlClient(pool), 'user.updated.v1', bad)).rejects.toThrow();
  });

  it('publishes in commit order, and two relays side by side publish each event once', async () => {
    const db = pgSqlClient(pool);
    const outbox = new Outbox(bus.namespace);
    const users = Array.from({ length: 30 }, () => snapshot());
    for (const user of users) await outbox.enqueue(db, 'user.registered.v1', user);
    const relays = [new OutboxRelay({ db, bus, logger, batchSize: 7 }), new OutboxRelay({ db, bus, logger, batchSize: 7 })];
    await Promise.all(relays.map((r) => r.drain()));
    const ids = new Set(users.map((u) => u.id));
    const published = (await readEvents(bus, 'USERS', 'user.registered.v1', 'user.updated.v1')).filter((e) => ids.has(e.data.id));
    expect(published).toHaveLength(30);
    expect(new Set(published.map((e) => e.data.id)).size).toBe(30);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL');
    expect(rows[0].n).toBe(0);
  });

  it('publishes in outbox order when one relay is drained twice at once (a poke and a test\'s drain): the second waits for the first', async () => {
    const db = pgSqlClient(pool);
    const outbox = new Outbox(bus.namespace);
    const users = Array.from({ length: 6 }, () => snapshot());
    for (const user of users) await outbox.enqueue(db, 'user.registered.v1', user);
    // The fault: the first batch's publishes are slow, so a second drain that took the next rows would overtake it.
    let slow = 3;
    const slowBus: Bus = { ...bus, publish: async (...args) => (slow-- > 0 ? new Promise((r) => setTimeout(r, 150)).then(() => bus.publish(...args)) : bus.publish(...args)) };
    const relay = new OutboxRelay({ db, bus: slowBus, logger, batchSize: 3 });
    await Promise.all([relay.drain(), relay.drain()]);
    const ids = new Map(users.map((u, i) => [u.id, i]));
    const order = (await readEvents(bus, 'USERS', 'user.registered.v1')).map((e) => ids.get(e.data.id)).filter((i) => i !== undefined);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('consumer', () => {
  /**
   * One event delivered three times: once failing, once after it (a redelivery), and once more as a
   * copy under another msg id (an upstream re-sending, past JetStream's dedup). `inbox`: the
   * consumer has its inbox (processed_events), as every read model does — or not (the control).
   * Answers the event ids the handler's transaction recorded, once every delivery was acknowledged.
   */
  const deliveredThrice = async (withInbox: boolean) => {
    const db = pgSqlClient(pool);
    const outbox = new Outbox(bus.namespace);
    const user = snapshot();
    const envelope = await outbox.enqueue(db, 'user.updated.v1', user);
    await new OutboxRelay({ db, bus, logger }).drain();
    await bus.publish(`${bus.namespace}.user.updated.v1`, JSON.stringify(envelope), randomUUID());

    let attempts = 0;
    const durable = `test-${randomUUID().slice(0, 8)}`;
    const consumer = await startConsumer({
      bus,
      stream: 'USERS',
      durable,
      logger,
      ...(withInbox ? { inbox: sqlInbox(db) } : {}),
      // One at a time: in a batch, the failed try would be tried again at once alone (the batch tests below).
      batchSize: 1,
      ackWaitMs: 2000,
      handlers: {
        'user.updated.v1': async (event, { tx }) => {
          attempts += 1;
          const client = tx ?? db;
          await client.$executeRawUnsafe('INSERT INTO "seen" ("user_id", "event_id") VALUES ($1, $2)', event.data.id, event.id);
          if (attempts === 1) throw new Error('transient failure');
        },
      },
    });
    try {
      await eventually(async () => (await pool.query('SELECT 1 FROM "seen" WHERE user_id = $1', [user.id])).rowCount! >= 1);
      await eventually(() => attempts >= 2);
      // The duplicate has been delivered and acknowledged (skipped by the inbox) once nothing is pending.
      await consumerSettled(bus, 'USERS', durable);
      const seen = await pool.query<{ event_id: string }>('SELECT event_id FROM "seen" WHERE user_id = $1', [user.id]);
      return { envelope, applied: seen.rows.map((r) => r.event_id) };
    } finally {
      await consumer.stop();
    }
  };

  it('handles each event once despite a failure and a duplicate delivery', async () => {
    const { envelope, applied } = await deliveredThrice(true);
    expect(applied).toEqual([envelope.id]);
    expect(lines.some((l) => l.msg === 'event handler failed; will be redelivered' && l.eventId === envelope.id)).toBe(true);
  });

  it('control: without its inbox, the consumer applies the re-sent copy a second time', async () => {
    const { envelope, applied } = await deliveredThrice(false);
    // The failed try rolled back with nothing (without an inbox there is no transaction: its row stays), so 2 or 3.
    expect(applied.filter((id) => id === envelope.id).length).toBeGreaterThanOrEqual(2);
  });

  it('parks a poison event after its last delivery, and the events behind it keep flowing', async () => {
    const db = pgSqlClient(pool);
    const outbox = new Outbox(bus.namespace);
    const poison = await outbox.enqueue(db, 'user.updated.v1', snapshot());
    const healthy = await outbox.enqueue(db, 'user.updated.v1', snapshot());
    await new OutboxRelay({ db, bus, logger }).drain();
    let poisonDeliveries = 0;
    let fixed = false;
    const applied: string[] = [];
    const registry = new Registry();
    instrumentBus(bus, registry);
    const durable = `park-${randomUUID().slice(0, 8)}`;
    const consumer = await startConsumer({
      bus,
      stream: 'USERS',
      durable,
      logger,
      maxDeliver: 3,
      ackWaitMs: 2000,
      handlers: {
        'user.updated.v1': async (event) => {
          if (event.id === poison.id && !fixed) {
            poisonDeliveries += 1;
            throw new Error('this event can never be applied');
          }
          applied.push(event.id);
        },
      },
    });
    try {
      await eventually(() => applied.includes(healthy.id));
      await eventually(() => lines.some((l) => l.msg === 'event parked in the dead-letter stream: its handler failed on every delivery' && l.eventId === poison.id));
      // Parked for good: once nothing is pending or unacknowledged, no fourth delivery can come.
      await consumerSettled(bus, 'USERS', durable);
      expect(poisonDeliveries).toBe(3);
      // The operators see it: one parked, two failed deliveries before it.
      const parked = (await registry.getSingleMetric('bus_events_consumed_total')?.get())?.values.filter((v) => v.labels.consumer === durable) ?? [];
      expect(parked.find((v) => v.labels.outcome === 'parked')?.value).toBe(1);
      expect(parked.find((v) => v.labels.outcome === 'failed')?.value).toBe(2);

      // Issue 19, item 7: not dropped. The dead-letter stream holds it, with where it came from and why.
      const letters = (await listDeadLetters(bus)).filter((l) => l.consumer === durable);
      expect(letters).toHaveLength(1);
      expect(letters[0]).toMatchObject({ subject: `${bus.namespace}.user.updated.v1`, deliveries: 3, error: 'this event can never be applied' });
      expect(JSON.parse(letters[0]?.payload ?? '{}')).toMatchObject({ id: poison.id, type: 'user.updated.v1' });
      // The cause fixed, the operator replays it: the consumer applies it once, and the letter is gone.
      fixed = true;
      await replayDeadLetter(bus, letters[0]?.seq ?? -1);
      await eventually(() => applied.includes(poison.id), 'the replayed event applied');
      await consumerSettled(bus, 'USERS', durable);
      expect(applied.filter((id) => id === poison.id)).toHaveLength(1);
      expect(applied.filter((id) => id === healthy.id)).toHaveLength(1);
      expect((await listDeadLetters(bus)).filter((l) => l.consumer === durable)).toEqual([]);
    } finally {
      await consumer.stop();
      delete bus.metrics;
    }
  });

  it('a handler slower than the ack wait is not redelivered meanwhile: it runs once', async () => {
    const db = pgSqlClient(pool);
    const envelope = await new Outbox(bus.namespace).enqueue(db, 'user.updated.v1', snapshot());
    await new OutboxRelay({ db, bus, logger }).drain();
    let runs = 0;
    let deliveries = 0; // every delivery the handler saw, of any event
    let done = false;
    // No inbox here, as for the fan-out's consumers: only the in-progress signal keeps it from running twice.
    const durable = `slow-${randomUUID().slice(0, 8)}`;
    const consumer = await startConsumer({
      bus,
      stream: 'USERS',
      durable,
      logger,
      ackWaitMs: 1000,
      handlers: {
        'user.updated.v1': async (event) => {
          deliveries += 1;
          if (event.id !== envelope.id) return;
          runs += 1;
          await new Promise((r) => setTimeout(r, 3000)); // three ack waits
          done = true;
        },
      },
    });
    try {
      await eventually(() => done);
      // A redelivery, had there been one, was made by the time nothing is pending; and it reached the
      // handler once every delivery the server counts did (one could wait in the client's buffer).
      const settled = await consumerSettled(bus, 'USERS', durable);
      await eventually(() => deliveries === settled.delivered.consumer_seq);
      expect(runs).toBe(1);
    } finally {
      await consumer.stop();
    }
  });

  it('parks an unreadable message in the dead-letter stream instead of retrying it forever', async () => {
    const junk = `{"not":"an event","marker":"${randomUUID()}"}`;
    await bus.publish(`${bus.namespace}.user.updated.v1`, junk, randomUUID());
    const durable = `poison-${randomUUID().slice(0, 8)}`;
    const consumer = await startConsumer({ bus, stream: 'USERS', durable, logger, handlers: { 'user.updated.v1': async () => undefined } });
    try {
      await eventually(() => lines.some((l) => l.msg === 'unreadable event parked in the dead-letter stream: its handler failed on every delivery'));
      await eventually(async () => (await listDeadLetters(bus)).some((l) => l.consumer === durable && l.payload === junk), 'the junk among the dead letters');
      const letter = (await listDeadLetters(bus)).find((l) => l.consumer === durable && l.payload === junk);
      await discardDeadLetter(bus, letter?.seq ?? -1);
      expect((await listDeadLetters(bus)).some((l) => l.consumer === durable)).toBe(false);
    } finally {
      await consumer.stop();
    }
  });
});

describe('consumer batches (issue 41)', () => {
  /** A namespace of its own, made anew for each test: its streams hold only that test's events, so every batch is of them. */
  let batchBus: Bus;
  beforeEach(async () => {
    batchBus = await connectBus({ url: 'nats://127.0.0.1:4222', name: 'bus-batch-test', namespace: testNamespace('busbatch'), logger });
    await deleteStreams(batchBus);
    await ensureStreams(batchBus);
  });
  afterEach(async () => {
    await deleteStreams(batchBus);
    await batchBus.close();
  });

  /**
   * `events` user.updated.v1 events published before a consumer with an inbox starts, so all are
   * ready at once; the handler writes a row per event in the inbox transaction, and throws on every
   * delivery of the `failAt`-th event (a poison event) if given, or on the first application only of
   * the `transientAt`-th (a failure that passes: a lost connection, a deadlock). Answers the transactions that
   * committed (a hook on the inbox's `$transaction`: the batches, and the position's read and save), the rows per event, the dead letters and the
   * consumed counts by outcome, once nothing is pending or unacknowledged.
   */
  const consumeReady = async (options: { events: number; failAt?: number; transientAt?: number; batchSize?: number; durable?: string }) => {
    const db = pgSqlClient(pool);
    let commits = 0;
    const counted: typeof db = {
      ...db,
      $transaction: async (fn, o) => {
        const result = await db.$transaction(fn, o);
        commits += 1;
        return result;
      },
    };
    const outbox = new Outbox(batchBus.namespace);
    const envelopes = [];
    for (let i = 0; i < options.events; i++) envelopes.push(await outbox.enqueue(db, 'user.updated.v1', snapshot()));
    await new OutboxRelay({ db, bus: batchBus, logger }).drain();
    const poison = options.failAt === undefined ? undefined : envelopes[options.failAt - 1]?.id;
    const transient = options.transientAt === undefined ? undefined : envelopes[options.transientAt - 1]?.id;
    let transientFailed = false;
    const registry = new Registry();
    instrumentBus(batchBus, registry);
    const durable = options.durable ?? `batch-${randomUUID().slice(0, 8)}`;
    const consumer = await startConsumer({
      bus: batchBus,
      stream: 'USERS',
      durable,
      logger,
      inbox: sqlInbox(counted),
      maxDeliver: 3,
      ackWaitMs: 2000,
      ...(options.batchSize ? { batchSize: options.batchSize } : {}),
      handlers: {
        'user.updated.v1': async (event, { tx }) => {
          await (tx ?? db).$executeRawUnsafe('INSERT INTO "seen" ("user_id", "event_id") VALUES ($1, $2)', event.data.id, event.id);
          if (event.id === poison) throw new Error('this event can never be applied');
          if (event.id === transient && !transientFailed) {
            transientFailed = true;
            throw new Error('this event fails once');
          }
        },
      },
    });
    try {
      if (poison) await eventually(async () => (await listDeadLetters(batchBus)).some((l) => l.consumer === durable), 'the poison event parked');
      await consumerSettled(batchBus, 'USERS', durable);
    } finally {
      await consumer.stop();
    }
    const { rows } = await pool.query<{ event_id: string; n: number }>('SELECT event_id, count(*)::int AS n FROM "seen" GROUP BY event_id');
    const timesApplied = new Map(rows.map((r) => [r.event_id, r.n]));
    const consumed = (await registry.getSingleMetric('bus_events_consumed_total')?.get())?.values.filter((v) => v.labels.consumer === durable) ?? [];
    const outcome = (name: string) => consumed.filter((v) => v.labels.outcome === name).reduce((sum, v) => sum + v.value, 0);
    const letters = (await listDeadLetters(batchBus)).filter((l) => l.consumer === durable);
    delete batchBus.metrics;
    return { envelopes, poison, transient, transientFailed, durable, commits, timesApplied, letters, outcome };
  };

  it('applies the events that are ready in one transaction each batch, and a redelivery of all of them changes nothing', async () => {
    const events = 48;
    const first = await consumeReady({ events });
    expect(first.envelopes.every((e) => first.timesApplied.get(e.id) === 1)).toBe(true);
    // 48 events fit one batch; how many arrive before the first is taken depends on the socket's reads: a few batches,
    // and the position read at the start and saved at the stop (the control below: 48 and those two).
    expect(first.commits).toBeLessThanOrEqual(6);
    expect(first.outcome('ok')).toBe(events);
    // Redelivered whole: the same durable made anew on the same stream is given every event again, as
    // if the acks had been lost. Each is skipped by its inbox row, in batches too.
    await batchBus.jsm.consumers.delete(streamNameFor(batchBus.namespace, 'USERS'), first.durable);
    const again = await consumeAgain(first.durable, events);
    expect(again.applied).toBe(events);
    expect(again.duplicates).toBe(events);
  });

  /** The same durable once more over the stream as it is: the rows per event and the duplicates counted. */
  const consumeAgain = async (durable: string, events: number) => {
    const registry = new Registry();
    instrumentBus(batchBus, registry);
    let ran = 0;
    const consumer = await startConsumer({
      bus: batchBus,
      stream: 'USERS',
      durable,
      logger,
      inbox: sqlInbox(pgSqlClient(pool)),
      handlers: { 'user.updated.v1': async () => void (ran += 1) },
    });
    try {
      await eventually(async () => {
        const consumed = (await registry.getSingleMetric('bus_events_consumed_total')?.get())?.values ?? [];
        return consumed.reduce((sum, v) => sum + v.value, 0) >= events;
      }, 'every event delivered again');
      await consumerSettled(batchBus, 'USERS', durable);
    } finally {
      await consumer.stop();
    }
    const consumed = (await registry.getSingleMetric('bus_events_consumed_total')?.get())?.values ?? [];
    delete batchBus.metrics;
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM "seen"');
    expect(ran).toBe(0);
    return { applied: rows[0]?.n ?? 0, duplicates: consumed.filter((v) => v.labels.outcome === 'duplicate').reduce((sum, v) => sum + v.value, 0) };
  };

  it('control: one at a time (batchSize 1), the same events take a commit each', async () => {
    const events = 48;
    const { commits, envelopes, timesApplied } = await consumeReady({ events, batchSize: 1 });
    expect(envelopes.every((e) => timesApplied.get(e.id) === 1)).toBe(true);
    // One per event, and the consumer's position: read at its start, saved at its stop (when caught up).
    expect(commits).toBeGreaterThanOrEqual(events);
    expect(commits).toBeLessThanOrEqual(events + 2);
  });

  /**
   * What a batch that rolled back left: its log line, and a commit of its own for each of its events
   * but the failing one (the fallback applies them alone). Which events share a batch depends on the
   * socket's reads: on a busy machine the failing event can arrive alone, and then no batch of several
   * held it; the rows once each (asserted by the callers) hold either way.
   */
  const expectRolledBackBatch = (durable: string, commits: number) => {
    const rolledBack = lines.filter((l) => l.msg === 'event batch rolled back; applying its events one at a time' && l.consumer === durable);
    for (const line of rolledBack) {
      expect(Number(line.events)).toBeGreaterThan(1);
      expect(commits).toBeGreaterThanOrEqual(Number(line.events) - 1);
    }
    return rolledBack.length;
  };

  it('a handler failing in the middle of a batch: the batch rolls back, the others are applied once each, the failing one is retried and parked', async () => {
    const events = 20;
    const run = await consumeReady({ events, failAt: 7 });
    // Rolled back whole: without the one transaction, the six before the poison would have their rows twice.
    expect(run.envelopes.filter((e) => e.id !== run.poison).every((e) => run.timesApplied.get(e.id) === 1)).toBe(true);
    expect(run.timesApplied.get(run.poison ?? '')).toBeUndefined();
    expectRolledBackBatch(run.durable, run.commits);
    // Today's path for the poison: two failed deliveries, parked on the third, its letter in the dead-letter stream.
    expect(run.letters).toHaveLength(1);
    expect(run.letters[0]).toMatchObject({ deliveries: 3, error: 'this event can never be applied' });
    expect(JSON.parse(run.letters[0]?.payload ?? '{}')).toMatchObject({ id: run.poison });
    expect(run.outcome('ok')).toBe(events - 1);
    expect(run.outcome('failed')).toBe(2);
    expect(run.outcome('parked')).toBe(1);
  });

  it('a failure that passes, in the middle of a batch: the batch rolls back, and every event ends applied once, none parked', async () => {
    const events = 20;
    const run = await consumeReady({ events, transientAt: 7 });
    expect(run.transientFailed).toBe(true);
    // The six before it were written in the batch that rolled back, and once more one at a time: once each in the end.
    expect(run.envelopes.every((e) => run.timesApplied.get(e.id) === 1)).toBe(true);
    expectRolledBackBatch(run.durable, run.commits);
    expect(run.letters).toEqual([]);
    // The batch's failure counts no event as failed: each is judged alone next, and each succeeds.
    expect(run.outcome('parked')).toBe(0);
    expect(run.outcome('ok')).toBe(events);
  });

  it('control: the same events without the fault leave no dead letter and no rolled-back batch', async () => {
    const run = await consumeReady({ events: 20 });
    expect(run.letters).toEqual([]);
    expect(run.outcome('failed') + run.outcome('parked')).toBe(0);
    expect(lines.some((l) => l.msg === 'event batch rolled back; applying its events one at a time' && l.consumer === run.durable)).toBe(false);
    expect(run.commits).toBeLessThan(20);
  });
});

describe('bus metrics', () => {
  it('counts what the relay published and how each delivery ended, and reads the lag from JetStream', async () => {
    const registry = new Registry();
    instrumentBus(bus, registry);
    const db = pgSqlClient(pool);
    const relay = new OutboxRelay({ db, bus, logger });
    relay.registerMetrics(registry);
    const envelope = await new Outbox(bus.namespace).enqueue(db, 'user.updated.v1', snapshot());
    expect(await registry.getSingleMetricAsString('outbox_pending_events')).toMatch(/^outbox_pending_events 1$/m);
    await relay.drain();
    // The same event again under another msg id: the inbox skips it (a duplicate).
    await bus.publish(`${bus.namespace}.user.updated.v1`, JSON.stringify(envelope), randomUUID());
    const durable = `metrics-${randomUUID().slice(0, 8)}`;
    let attempts = 0;
    const consumer = await startConsumer({
      bus,
      stream: 'USERS',
      durable,
      logger,
      inbox: sqlInbox(db),
      // One at a time, so the transient failure is one failed delivery (a batch's fallback would retry it at once).
      batchSize: 1,
      ackWaitMs: 2000,
      handlers: {
        'user.updated.v1': async (event) => {
          if (event.id !== envelope.id) return;
          attempts += 1;
          if (attempts === 1) throw new Error('transient failure');
        },
      },
    });
    /** The sum of a metric's series matching `labels` (a histogram's count by its `_count` name). */
    const value = async (name: string, labels: Record<string, string>) => {
      const base = name.replace(/_count$/, '');
      const metric = await registry.getSingleMetric(base)?.get();
      const series = ((metric?.values ?? []) as Array<{ value: number; labels: Record<string, string | number | undefined>; metricName?: string }>).filter(
        (v) => base === name || v.metricName === name,
      );
      const matching = series.filter((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
      return matching.reduce((sum, v) => sum + v.value, 0);
    };
    try {
      await eventually(async () => (await value('bus_events_consumed_total', { consumer: durable, outcome: 'duplicate' })) >= 1 && attempts >= 2);
      expect(await value('bus_events_consumed_total', { consumer: durable, type: 'user.updated.v1', outcome: 'parked' })).toBe(0);
      expect(await value('bus_events_published_total', { type: 'user.updated.v1' })).toBeGreaterThanOrEqual(1);
      expect(await value('bus_events_consumed_total', { consumer: durable, outcome: 'failed' })).toBe(1);
      expect(await value('bus_events_consumed_total', { consumer: durable, type: 'user.updated.v1', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
      expect(await value('bus_event_handler_duration_seconds_count', { consumer: durable })).toBeGreaterThanOrEqual(3);
      expect(await registry.getSingleMetricAsString('outbox_pending_events')).toMatch(/^outbox_pending_events 0$/m);
      await eventually(async () => (await value('bus_consumer_pending_events', { consumer: durable })) === 0 && (await value('bus_consumer_ack_pending_events', { consumer: durable })) === 0);
      expect(await value('bus_stream_messages', { stream: 'USERS' })).toBeGreaterThan(0);
    } finally {
      await consumer.stop();
      delete bus.metrics;
    }
  });
});

describe('effect consumers', () => {
  it('poke the relay after a commit that wrote events, and not after one that wrote none', async () => {
    const db = pgSqlClient(pool);
    const outbox = new Outbox(bus.namespace);
    let pokes = 0;
    const durable = `effects-${randomUUID().slice(0, 8)}`;
    const consumers = await startEffectConsumers({
      bus,
      durable,
      logger,
      inbox: sqlInbox(db),
      streams: { USERS: { 'user.registered.v1': async (_tx, event) => event.data } },
      // Only a "loud" person's registration writes an event (as a notification or a completed challenge does, now and then).
      then: async (tx, user) => {
        if (user.displayName.startsWith('Loud')) await outbox.enqueue(tx, 'user.updated.v1', user);
      },
      afterCommit: () => {
        pokes += 1;
      },
    });
    const registered = async (...users: UserSnapshot[]) => {
      for (const user of users) await outbox.enqueue(db, 'user.registered.v1', user);
      await new OutboxRelay({ db, bus, logger }).drain();
      await consumerSettled(bus, 'USERS', `${durable}-users`);
    };
    try {
      await registered(snapshot({ displayName: 'Quiet One' }), snapshot({ displayName: 'Quiet Two' }));
      const written = async () => Number((await pool.query(`SELECT count(*) AS n FROM outbox WHERE subject LIKE '%user.updated.v1'`)).rows[0].n);
      expect(await written()).toBe(0);
      // The control: commits happened (the inbox recorded the events), and none of them poked.
      expect(Number((await pool.query('SELECT count(*) AS n FROM processed_events')).rows[0].n)).toBeGreaterThanOrEqual(2);
      expect(pokes).toBe(0);
      await registered(snapshot({ displayName: 'Loud Three' }));
      expect(await written()).toBe(1);
      await eventually(() => pokes === 1, 'a poke after the commit that wrote an event');
    } finally {
      await Promise.all(consumers.map((c) => c.stop()));
    }
  });
});
