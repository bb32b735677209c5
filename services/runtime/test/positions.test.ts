import { AckPolicy, nanos } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { streamNameFor, subjectFor, type EventEnvelope } from '@hoptrack/proto';
import { connectBus, deleteStreams, ensureStreams, type Bus } from '../src/bus/connection';
import { sqlInbox, startConsumer } from '../src/bus/consumer';
import type { ConsumerGap } from '../src/bus/positions';
import { busMigrationDirs } from '../src/bus/tables';
import { migrate } from '../src/db/migrate';
import { findGap, sqlPositions, trackPosition, type PositionStore } from '../src/bus/positions';
import { memoryLogger, testNamespace, testUserSnapshot } from '@hoptrack/testing';
import { pgSqlClient } from '../src/db/pg-sql-client';
import { requestsDatabase } from './requests-db';

/**
 * Issue 38, item 8: a consumer away longer than its stream's age finds out
 * at its start. Against the real NATS and Postgres, on a stream whose events
 * live 1.5 s: a filtered consumer that was caught up keeps a position even
 * while only other events flow (JetStream's own delivered sequence does not
 * move for those: the reason for positions); one away while an event for it
 * expired finds the gap; one that came back in time finds none.
 */
const { logger, lines } = memoryLogger('positions', 'warn');
let bus: Bus;
let database: Awaited<ReturnType<typeof requestsDatabase>>;
let store: PositionStore;
const namespace = testNamespace('positions');
const stream = `${namespace.toUpperCase().replace(/[^A-Z0-9_]/g, '_')}_SHORT`;
const subject = (kind: string) => `${stream.toLowerCase()}.${kind}`;

beforeAll(async () => {
  database = await requestsDatabase('runtime_positions');
  const [busPart] = busMigrationDirs();
  if (!busPart) throw new Error('no bus migration part');
  await migrate({ connectionString: (database.pool.options as { connectionString: string }).connectionString, migrationsDir: busPart, logger });
  await database.pool.query('TRUNCATE "consumer_positions", "processed_events"');
  store = sqlPositions(pgSqlClient(database.pool));
  bus = await connectBus({ url: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', name: 'positions', namespace, logger });
  await bus.jsm.streams.add({ name: stream, subjects: [`${stream.toLowerCase()}.>`], max_age: nanos(1500) });
  await bus.jsm.consumers.add(stream, { durable_name: 'mine', filter_subject: subject('mine'), ack_policy: AckPolicy.Explicit });
});
afterAll(async () => {
  await bus?.jsm.streams.delete(stream).catch(() => undefined);
  if (bus) await deleteStreams(bus);
  await bus?.close();
  await database?.close();
});

/** Reads and acknowledges what is there for the consumer. */
async function readAll(): Promise<number> {
  const consumer = await bus.js.consumers.get(stream, 'mine');
  let read = 0;
  for (;;) {
    const message = await consumer.next({ expires: 1000 });
    if (!message) return read;
    await message.ackAck();
    read += 1;
  }
}

const waitForExpiry = async (seq: number) => {
  while ((await bus.jsm.streams.info(stream)).state.first_seq <= seq) await new Promise((resolve) => setTimeout(resolve, 200));
};

describe('consumer positions', () => {
  it('a caught-up consumer keeps its position past events not for it; nothing pending, nothing missed', async () => {
    await bus.js.publish(subject('mine'), 'a');
    expect(await readAll()).toBe(1);
    const tracker = trackPosition({ bus, stream, durable: 'mine', store, logger, intervalMs: 60_000 });
    await tracker.once();
    // Only others' events flow, and expire: JetStream's delivered sequence stays at 1, the position moves.
    for (let i = 0; i < 5; i++) await bus.js.publish(subject('other'), 'b');
    await tracker.once();
    const last = (await bus.jsm.streams.info(stream)).state.last_seq;
    expect((await store.load('mine'))?.streamSeq).toBe(last);
    expect((await bus.jsm.consumers.info(stream, 'mine')).delivered.stream_seq).toBe(1);
    await waitForExpiry(last);
    tracker.stop();
    expect(await findGap(bus, stream, 'mine', store), 'a quiet consumer is not a missing one').toBeNull();
  });

  it('a consumer away while an event for it expired finds the gap at its start; its position does not move while work is pending', async () => {
    const before = (await store.load('mine'))?.streamSeq;
    const { seq } = await bus.js.publish(subject('mine'), 'missed');
    // Pending work: a look saves nothing.
    await trackPosition({ bus, stream, durable: 'mine', store, logger, intervalMs: 60_000 }).once();
    expect((await store.load('mine'))?.streamSeq).toBe(before);
    await waitForExpiry(seq);
    const gap = await findGap(bus, stream, 'mine', store);
    expect(gap).toEqual({ stream, durable: 'mine', from: (before ?? 0) + 1, to: seq, since: expect.any(Date) });
  });

  it('a consumer without a position has nothing to compare and reads from the first event', async () => {
    expect(await findGap(bus, stream, 'never-ran', store)).toBeNull();
  });

  it('a stream made anew behind the position (its data lost) is a gap too', async () => {
    const last = (await bus.jsm.streams.info(stream)).state.last_seq;
    await store.save('remade', last + 100);
    expect(await findGap(bus, stream, 'remade', store)).toMatchObject({ from: 1, to: Math.max(1, last) });
  });

  it('never moves a position backwards (two copies saving side by side)', async () => {
    await store.save('twin', 10);
    await store.save('twin', 7);
    expect((await store.load('twin'))?.streamSeq).toBe(10);
  });

  it('startConsumer says so at its start: an error, the missed count, onGap — then reads on', async () => {
    await ensureStreams(bus, ['USERS']);
    const publish = async () => {
      const envelope: EventEnvelope<'user.updated.v1'> = { id: randomUUID(), type: 'user.updated.v1', occurredAt: new Date().toISOString(), data: testUserSnapshot(randomUUID()) };
      return (await bus.publish(subjectFor(bus.namespace, 'user.updated.v1'), JSON.stringify(envelope), envelope.id)).seq;
    };
    const first = await publish();
    await publish();
    const last = await publish();
    // The consumer had stood at its first event; the stream then lost the rest unread (purged, as by its age).
    await store.save(`${streamNameFor(bus.namespace, 'USERS')}/reader`, first);
    await bus.jsm.streams.purge(streamNameFor(bus.namespace, 'USERS'));
    const gaps: ConsumerGap[] = [];
    const consumer = await startConsumer({
      bus,
      stream: 'USERS',
      durable: 'reader',
      logger,
      inbox: sqlInbox(pgSqlClient(database.pool)),
      handlers: { 'user.updated.v1': async () => undefined },
      onGap: (gap) => void gaps.push(gap),
    });
    await consumer.stop();
    expect(gaps.map(({ from, to }) => ({ from, to }))).toEqual([{ from: first + 1, to: last }]);
    expect(lines.some((l) => String(l.msg).startsWith('consumer missed events') && l.from === first + 1 && l.to === last)).toBe(true);

    // Caught up again once it ran: a later start finds nothing.
    await store.save(`${streamNameFor(bus.namespace, 'USERS')}/reader`, last);
    const again: ConsumerGap[] = [];
    await (await startConsumer({ bus, stream: 'USERS', durable: 'reader', logger, inbox: sqlInbox(pgSqlClient(database.pool)), handlers: { 'user.updated.v1': async () => undefined }, onGap: (gap) => void again.push(gap) })).stop();
    expect(again).toEqual([]);
  });
});
