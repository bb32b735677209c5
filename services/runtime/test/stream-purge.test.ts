import { randomUUID } from 'node:crypto';
import type { Subscription } from 'nats';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { streamNameFor, type UserSnapshot } from '@hoptrack/proto';
import { consumerSettled, eventually, memoryLogger, testDatabaseUrl, testNamespace, testUserSnapshot } from '@hoptrack/testing';
import { forgetEventsNaming } from '../src/audience/erased';
import { connectBus, deleteStreams, ensureStreams, type Bus } from '../src/bus/connection';
import { startConsumer } from '../src/bus/consumer';
import { Outbox, OutboxRelay } from '../src/bus/outbox';
import { purgeQueued, queuePurges, subjectMatches } from '../src/bus/purge';
import { scrubDeadLetters } from '../src/bus/scrub';
import { OUTBOX_TABLE_SQL } from '../src/bus/tables';
import { ensureDatabase } from '../src/db/database';
import { pgSqlClient } from '../src/db/pg-sql-client';
import type { TransactionalSqlClient } from '../src/db/sql';

/**
 * Issue 41, item 5, step 2: an erased person's messages leave the streams
 * without any stream being read. The relay records where each event was
 * stored; the erasure's forgetEventsNaming queues exactly those messages;
 * the purger deletes each by its sequence once every durable consumer that
 * would deliver it acknowledged it. Against the real Postgres and NATS.
 */
const url = testDatabaseUrl('runtime_stream_purge');
const { logger } = memoryLogger('stream-purge', 'warn');
let pool: pg.Pool;
let db: TransactionalSqlClient;
let bus: Bus;
let outbox: Outbox;
let relay: OutboxRelay;
let users: string;

const snapshot = (over: Partial<UserSnapshot> = {}): UserSnapshot => ({ ...testUserSnapshot(randomUUID()), ...over });

/** Writes events through the outbox and publishes them, as a service does. */
async function emit(...events: Array<['user.registered.v1' | 'user.updated.v1', UserSnapshot]>): Promise<string[]> {
  const ids = await db.$transaction(async (tx) => {
    const out: string[] = [];
    for (const [type, data] of events) out.push((await outbox.enqueue(tx, type, data)).id);
    return out;
  });
  await relay.drain();
  return ids;
}

/** The payloads the USERS stream still holds (raw: a message is read by its sequence). */
async function storedTexts(): Promise<string[]> {
  const { state } = await bus.jsm.streams.info(users);
  const texts: string[] = [];
  for (let seq = state.first_seq; seq <= state.last_seq; seq += 1) {
    const stored = await bus.jsm.streams.getMessage(users, { seq }).catch(() => null);
    if (stored) texts.push(new TextDecoder().decode(stored.data));
  }
  return texts;
}

const queuedCount = async () => Number((await pool.query<{ n: string }>('SELECT count(*) AS "n" FROM "stream_purges"')).rows[0]?.n);

/**
 * The JetStream API requests made on this test's streams while `work` runs, by
 * verb (CONSUMER.LIST, STREAM.MSG.DELETE, …): the stream's name (with an
 * underscore) left out. Requests on other namespaces' streams are not counted:
 * the server is shared with the test files running beside this one, and their
 * requests reached this subscription in CI (2026-12-04).
 */
async function apiRequestsDuring(work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const ours = users.slice(0, -'USERS'.length);
  const sub: Subscription = bus.nc.subscribe('$JS.API.>', {
    callback: (_err, msg) => {
      const tokens = msg.subject.split('.').slice(2);
      if (tokens.some((t) => t.startsWith(ours))) seen.push(tokens.filter((t) => /^[A-Z]+$/.test(t)).join('.'));
    },
  });
  await bus.nc.flush();
  try {
    await work();
    await bus.nc.flush();
  } finally {
    sub.unsubscribe();
  }
  return seen;
}

beforeAll(async () => {
  await ensureDatabase(url);
  pool = new pg.Pool({ connectionString: url, max: 4 });
  db = pgSqlClient(pool);
  await pool.query(OUTBOX_TABLE_SQL);
  bus = await connectBus({ url: 'nats://127.0.0.1:4222', name: 'stream-purge-test', namespace: testNamespace('purge'), logger });
  await ensureStreams(bus);
  outbox = new Outbox(bus.namespace);
  relay = new OutboxRelay({ db, bus, logger });
  users = streamNameFor(bus.namespace, 'USERS');
});
beforeEach(() => pool.query('TRUNCATE "outbox", "stream_purges"'));
afterAll(async () => {
  await deleteStreams(bus);
  await bus.close();
  await pool.end();
});

describe('where the relay stored each event', () => {
  it('records the stream and sequence of its publish ack on the row', async () => {
    const [id] = await emit(['user.registered.v1', snapshot()]);
    const { rows } = await pool.query<{ stream: string; seq: string }>('SELECT "stream", "stream_seq"::text AS "seq" FROM "outbox" WHERE "id" = $1::uuid', [id]);
    expect(rows[0]?.stream).toBe(users);
    const stored = await bus.jsm.streams.getMessage(users, { seq: Number(rows[0]?.seq) });
    expect(new TextDecoder().decode(stored.data)).toContain(id);
  });

  it("a row published again (its mark lost) records the first copy's sequence: JetStream drops the copy and acks the original", async () => {
    const user = snapshot();
    const envelope = await outbox.enqueue(db, 'user.registered.v1', user);
    // The first publish of a relay whose mark never committed.
    const first = await bus.publish(`${bus.namespace}.user.registered.v1`, JSON.stringify(envelope), envelope.id);
    await emit(['user.updated.v1', snapshot()]);
    const { rows } = await pool.query<{ seq: string }>('SELECT "stream_seq"::text AS "seq" FROM "outbox" WHERE "id" = $1::uuid', [envelope.id]);
    expect(Number(rows[0]?.seq)).toBe(first.seq);
  });
});

describe('purging an erased person from the streams (issue 41)', () => {
  it('matches subjects as NATS does', () => {
    expect(subjectMatches('ns.user.deleted.v1', 'ns.user.deleted.v1')).toBe(true);
    expect(subjectMatches('ns.>', 'ns.user.deleted.v1')).toBe(true);
    expect(subjectMatches('ns.*.deleted.v1', 'ns.user.deleted.v1')).toBe(true);
    expect(subjectMatches('ns.user.erased.v1', 'ns.user.deleted.v1')).toBe(false);
    expect(subjectMatches('ns.user', 'ns.user.deleted.v1')).toBe(false);
    expect(subjectMatches('other.>', 'ns.user.deleted.v1')).toBe(false);
  });

  it('deletes exactly the messages that name the person, once every consumer that reads them acknowledged them', async () => {
    const gone = snapshot();
    const stays = snapshot();
    // An unpublished row naming her (written after the relay's last run) goes unpublished: nothing to purge of it.
    await emit(['user.registered.v1', gone], ['user.registered.v1', stays], ['user.updated.v1', { ...gone, displayName: 'again' }]);
    await outbox.enqueue(db, 'user.updated.v1', { ...gone, displayName: 'unpublished' });
    // A durable that reads them but has not acknowledged yet: the purge must wait for it.
    const durable = `purge-${randomUUID().slice(0, 8)}`;
    const release: Array<() => void> = [];
    const consumer = await startConsumer({
      bus,
      stream: 'USERS',
      durable,
      logger,
      handlers: {
        'user.registered.v1': () => new Promise<void>((resolve) => release.push(resolve)),
        'user.updated.v1': () => new Promise<void>((resolve) => release.push(resolve)),
      },
    });
    try {
      await eventually(async () => release.length >= 1, 'the consumer holds a message');
      expect(await db.$transaction((tx) => forgetEventsNaming(tx, [gone.id]))).toBe(2);
      const first = await purgeQueued(bus, db, logger);
      expect(first.waiting).toBeGreaterThan(0);
      // Let it through everything, then purge again.
      const releaser = setInterval(() => release.splice(0).forEach((r) => r()), 20);
      await consumerSettled(bus, 'USERS', durable);
      clearInterval(releaser);
      const second = await purgeQueued(bus, db, logger);
      expect(second.waiting).toBe(0);
      expect(first.deleted + second.deleted).toBe(2);
    } finally {
      await consumer.stop();
      // Gone, not only stopped: a durable left behind would hold back the next tests' purges (nothing acknowledged).
      await bus.jsm.consumers.delete(users, durable);
    }
    const left = await storedTexts();
    expect(left.filter((t) => t.includes(gone.id))).toEqual([]);
    expect(left.filter((t) => t.includes(stays.id))).toHaveLength(1);
    expect(await queuedCount()).toBe(0);
    expect(await purgeQueued(bus, db, logger)).toEqual({ deleted: 0, waiting: 0 });
  });

  it('reads no stream: one consumer listing and one delete per message of hers, however many messages the stream holds', async () => {
    const gone = snapshot();
    await emit(['user.registered.v1', gone], ['user.updated.v1', { ...gone, displayName: 'twice' }]);
    // Thousands of others' events beside hers.
    for (let batch = 0; batch < 10; batch += 1) await emit(...Array.from({ length: 300 }, () => ['user.registered.v1', snapshot()] as ['user.registered.v1', UserSnapshot]));
    await db.$transaction((tx) => forgetEventsNaming(tx, [gone.id]));
    // A neighbour (another test file's namespace) asking the same server meanwhile is not hers to count.
    const neighbour = () => bus.jsm.streams.info(streamNameFor(testNamespace('neighbour'), 'USERS')).catch(() => null);
    const requests = await apiRequestsDuring(() => Promise.all([purgeQueued(bus, db, logger), neighbour()]));
    expect([...requests].sort()).toEqual(['CONSUMER.LIST', 'STREAM.MSG.DELETE', 'STREAM.MSG.DELETE']);
    expect((await storedTexts()).filter((t) => t.includes(gone.id))).toEqual([]);
  });

  it('the control: the same count sees a stream being read (the dead-letter scrub reads its stream)', async () => {
    const gone = snapshot();
    await bus.publish(`${bus.namespace}.deadletter.some-consumer`, JSON.stringify({ data: gone }), randomUUID());
    let result = { deleted: 0, waiting: 0 };
    const requests = await apiRequestsDuring(async () => (result = await scrubDeadLetters(bus, [gone.id], logger)));
    expect(requests).toContain('CONSUMER.CREATE');
    expect(result).toEqual({ deleted: 1, waiting: 0 });
    expect(await scrubDeadLetters(bus, [gone.id], logger)).toEqual({ deleted: 0, waiting: 0 });
  });

  it('a message gone already (the age limit, another process) is done: its row goes, nothing fails', async () => {
    const [id] = await emit(['user.registered.v1', snapshot()]);
    const { rows } = await pool.query<{ seq: string; subject: string }>('SELECT "stream_seq"::text AS "seq", "subject" FROM "outbox" WHERE "id" = $1::uuid', [id]);
    const seq = Number(rows[0]?.seq);
    await bus.jsm.streams.deleteMessage(users, seq);
    await queuePurges(db, [{ stream: users, seq, subject: rows[0]?.subject ?? '' }]);
    expect(await purgeQueued(bus, db, logger)).toEqual({ deleted: 1, waiting: 0 });
    expect(await queuedCount()).toBe(0);
  });
});
