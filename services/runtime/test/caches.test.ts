import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumerSettled, memoryLogger, publishEvent, testDatabaseUrl, testNamespace, testUserSnapshot } from '@hoptrack/testing';
import { startAudience, audienceDurables } from '../src/audience/consumer';
import { PeopleCache, personOfSnapshot } from '../src/audience/people-cache';
import { tokenVersionCheck } from '../src/audience/revocation';
import { audienceMigrationDirs } from '../src/audience/tables';
import { VersionedCache } from '../src/cache/versioned-cache';
import { connectBus, deleteStreams, ensureStreams, type Bus } from '../src/bus/connection';
import { INBOX_TABLE_SQL } from '../src/bus/tables';
import { ensureDatabase } from '../src/db/database';
import { migrate } from '../src/db/migrate';
import { pgSqlClient } from '../src/db/pg-sql-client';

/**
 * The runtime's two Redis read models against a real Redis (and, for the
 * people cache, Postgres and NATS): the versioned read-through cache that a
 * write racing a fill cannot leave stale, and the people cache that only
 * ever moves forward and carries a password reset before the reset answers.
 */

const { logger } = memoryLogger('caches-test');
const namespace = testNamespace('caches');
const url = testDatabaseUrl('runtime_caches');
let redis: Redis;
let pool: pg.Pool;
let bus: Bus;

beforeAll(async () => {
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  await ensureDatabase(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
  await client.end();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'caches-migrations-'));
  mkdirSync(path.join(dir, '20260101000000_service'));
  writeFileSync(path.join(dir, '20260101000000_service', 'migration.sql'), INBOX_TABLE_SQL);
  await migrate({ connectionString: url, migrationsDir: dir, include: audienceMigrationDirs(['people']), logger });
  pool = new pg.Pool({ connectionString: url });
  bus = await connectBus({ url: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', name: 'caches-test', namespace, logger });
  await ensureStreams(bus, ['USERS']);
});
afterAll(async () => {
  const keys = await redis.keys(`${namespace}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  await deleteStreams(bus);
  await bus.close();
  await pool.end();
});

/** A source of truth in memory that counts its reads and can be held in the middle of one. */
function source(initial: Record<string, string>) {
  const values = new Map(Object.entries(initial));
  let held: { reached: () => void; release: Promise<void> } | null = null;
  const state = {
    values,
    reads: 0,
    /** The next read takes its snapshot, then waits until `release` resolves. */
    holdNextRead(release: Promise<void>): Promise<void> {
      return new Promise((reached) => {
        held = { reached, release };
      });
    },
    async load(ids: readonly string[]): Promise<Map<string, string>> {
      state.reads += 1;
      const snapshot = new Map(ids.flatMap((id) => (values.has(id) ? [[id, values.get(id) as string] as const] : [])));
      const hold = held;
      held = null;
      if (hold) {
        hold.reached();
        await hold.release;
      }
      return snapshot;
    },
  };
  return state;
}

describe('VersionedCache', () => {
  it('loads a miss once, then answers from Redis; unknown ids stay absent', async () => {
    const truth = source({ a: 'A1', b: 'B1' });
    const cache = new VersionedCache<string>({ redis, prefix: `${namespace}:v1`, ttlSeconds: 60, load: (ids) => truth.load(ids) });
    expect(await cache.getMany(['a', 'b', 'zz'])).toEqual(new Map([['a', 'A1'], ['b', 'B1']]));
    expect(truth.reads).toBe(1);
    expect(await cache.getMany(['a', 'b'])).toEqual(new Map([['a', 'A1'], ['b', 'B1']]));
    expect(truth.reads).toBe(1);
    truth.values.set('a', 'A2');
    await cache.invalidate(['a']);
    expect(await cache.getMany(['a', 'b'])).toEqual(new Map([['a', 'A2'], ['b', 'B1']]));
    expect(truth.reads).toBe(2);
  });

  it.each([
    ['in Redis', 0],
    ['in Redis and in process memory', 10],
  ])('a write that commits and invalidates while a reader is loading leaves nothing stale behind (%s)', async (_where, memoryEntries) => {
    const truth = source({ a: 'old' });
    const prefix = `${namespace}:race-${memoryEntries}`;
    const cache = new VersionedCache<string>({ redis, prefix, ttlSeconds: 60, memoryEntries, load: (ids) => truth.load(ids) });
    // The writer is another replica: the reader's process memory learns of the write only through Redis.
    const writer = new VersionedCache<string>({ redis, prefix, ttlSeconds: 60, memoryEntries, load: (ids) => truth.load(ids) });
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const reached = truth.holdNextRead(released);
    // The reader misses and reads the source (old state) ...
    const reading = cache.getMany(['a']);
    await reached;
    // ... a writer commits and invalidates ...
    truth.values.set('a', 'new');
    await writer.invalidate(['a']);
    // ... and only then does the reader try to store what it read.
    release();
    expect((await reading).get('a')).toBe('old'); // its own answer was read before the write: fine
    expect(await redis.get(`${prefix}:a`)).toBeNull(); // but it was not stored
    expect((await cache.getMany(['a'])).get('a')).toBe('new');
    expect(await redis.get(`${prefix}:a`)).toBe(JSON.stringify('new'));
    expect((await cache.getMany(['a'])).get('a')).toBe('new');
  });

  it('kept in process memory: a read asks Redis for versions only, and sees at once what another process invalidated', async () => {
    const truth = source({ a: 'A1', b: 'B1' });
    const prefix = `${namespace}:memory`;
    const here = new VersionedCache<string>({ redis, prefix, ttlSeconds: 60, memoryEntries: 10, load: (ids) => truth.load(ids) });
    const there = new VersionedCache<string>({ redis, prefix, ttlSeconds: 60, memoryEntries: 10, load: (ids) => truth.load(ids) });
    expect(await here.getMany(['a', 'b'])).toEqual(new Map([['a', 'A1'], ['b', 'B1']]));
    expect(await here.getMany(['a', 'b'])).toEqual(new Map([['a', 'A1'], ['b', 'B1']]));
    expect(here.stats.memoryHits).toBe(2);
    // Another replica changes a and drops it: this process's copy no longer matches Redis's version.
    truth.values.set('a', 'A2');
    await there.invalidate(['a']);
    expect(await here.getMany(['a', 'b'])).toEqual(new Map([['a', 'A2'], ['b', 'B1']]));
    expect(here.stats.memoryHits).toBe(3);
    // Filled by `here`'s load: `there` reads Redis's copy and keeps it.
    expect((await there.getMany(['a'])).get('a')).toBe('A2');
    expect(there.stats.redisHits).toBe(1);
    expect((await there.getMany(['a'])).get('a')).toBe('A2');
    expect(there.stats.memoryHits).toBe(1);
  });

  it('a version is never handed out twice, even after a version key expired (no stale copy can match again)', async () => {
    const truth = source({ a: 'A1' });
    const prefix = `${namespace}:aba`;
    const cache = new VersionedCache<string>({ redis, prefix, ttlSeconds: 60, memoryEntries: 10, load: (ids) => truth.load(ids) });
    await cache.invalidate(['a']);
    const first = await redis.get(`${prefix}:v:a`);
    await redis.del(`${prefix}:v:a`); // as when it expires
    await cache.invalidate(['a']);
    const second = await redis.get(`${prefix}:v:a`);
    expect(first).toMatch(/^g\d+$/);
    expect(second).toMatch(/^g\d+$/);
    expect(second).not.toBe(first);
  });

  it('reads from the source when Redis cannot be reached', async () => {
    const down = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    down.on('error', () => undefined);
    const truth = source({ a: 'A' });
    const cache = new VersionedCache<string>({ redis: down, prefix: `${namespace}:down`, ttlSeconds: 60, load: (ids) => truth.load(ids) });
    expect(await cache.getMany(['a'])).toEqual(new Map([['a', 'A']]));
    await expect(cache.invalidate(['a'])).rejects.toThrow();
    down.disconnect();
  });
});

describe('PeopleCache', () => {
  /** Counts the statements the cache sends to Postgres. */
  const counting = () => {
    const counter = { statements: 0 };
    const db = pgSqlClient(pool, (call) => {
      counter.statements += 1;
      return call;
    });
    return { db, counter };
  };

  it('never goes back: a fill from an older row does not replace a newer snapshot', async () => {
    const { db } = counting();
    const cache = new PeopleCache(redis, `${namespace}:older`, db);
    const snapshot = { ...testUserSnapshot(randomUUID()), displayName: 'Old name' };
    const newer = { ...snapshot, displayName: 'New name', tokenVersion: 1, updatedAt: new Date(Date.parse(snapshot.updatedAt) + 1000).toISOString() };
    await cache.put(personOfSnapshot(newer));
    // What a reader that missed and read the table before the update would store afterwards (the same script): ignored.
    await cache.put(personOfSnapshot(snapshot));
    expect((await cache.get(snapshot.id))?.displayName).toBe('New name');
    expect((await cache.get(snapshot.id))?.tokenVersion).toBe(1);
  });

  it("is written by the audience consumer before the event is acknowledged, so the token check refuses a reset's old token from Redis alone", async () => {
    const { db, counter } = counting();
    const prefix = `${namespace}:svc`;
    const cache = new PeopleCache(redis, prefix, db);
    const durable = `caches-${randomUUID().slice(0, 8)}`;
    const running = await startAudience({ bus, db: pgSqlClient(pool), durable, logger, parts: ['people'], peopleCache: cache });
    try {
      const registered = testUserSnapshot(randomUUID());
      await publishEvent(bus, 'user.registered.v1', registered);
      await consumerSettled(bus, 'USERS', audienceDurables(durable).people.durable);
      const check = tokenVersionCheck(db, cache);
      expect(await check({ userId: registered.id, tokenVersion: 0 })).toEqual({ roles: [] });
      // The reset: a newer snapshot with the next token version.
      const reset = { ...registered, tokenVersion: 1, version: (registered.version ?? 0) + 1 };
      await publishEvent(bus, 'user.updated.v1', reset);
      await consumerSettled(bus, 'USERS', audienceDurables(durable).people.durable);
      const stored = await redis.get(`${prefix}:personv:${registered.id}`);
      expect(stored).toMatch(/"tokenVersion":1/);
      const before = counter.statements;
      expect(await check({ userId: registered.id, tokenVersion: 0 })).toBeNull();
      expect(await check({ userId: registered.id, tokenVersion: 1 })).toEqual({ roles: [] });
      // Someone not heard of yet passes (as without the cache), after one look at the table and one at the tombstones (issue 24).
      expect(await check({ userId: randomUUID(), tokenVersion: 0 })).toEqual({ roles: [] });
      expect(counter.statements - before).toBe(2);
    } finally {
      await Promise.all(running.map((c) => c.stop()));
    }
  });

  it("answers a person's roles with the token check, from Redis and from the table; a revoke's snapshot takes them away before its ack (issue 42)", async () => {
    const { db } = counting();
    const prefix = `${namespace}:svc`;
    const cache = new PeopleCache(redis, prefix, db);
    const durable = `caches-${randomUUID().slice(0, 8)}`;
    const running = await startAudience({ bus, db: pgSqlClient(pool), durable, logger, parts: ['people'], peopleCache: cache });
    try {
      const person = testUserSnapshot(randomUUID());
      const granted = { ...person, roles: ['moderator' as const], version: (person.version ?? 0) + 1 };
      await publishEvent(bus, 'user.registered.v1', person);
      await publishEvent(bus, 'user.updated.v1', granted);
      await consumerSettled(bus, 'USERS', audienceDurables(durable).people.durable);
      const check = tokenVersionCheck(db, cache);
      expect(await check({ userId: person.id, tokenVersion: 0 })).toEqual({ roles: ['moderator'] });
      expect(await tokenVersionCheck(db)({ userId: person.id, tokenVersion: 0 })).toEqual({ roles: ['moderator'] });
      // Redis lost the entry: filled again from the table, roles included.
      await redis.del(`${prefix}:personv:${person.id}`);
      expect(await check({ userId: person.id, tokenVersion: 0 })).toEqual({ roles: ['moderator'] });
      // The revoke: a newer snapshot without the role. A late copy of the grant changes nothing (ordered by version).
      await publishEvent(bus, 'user.updated.v1', { ...granted, roles: [], version: (granted.version ?? 0) + 1 });
      await publishEvent(bus, 'user.updated.v1', granted);
      await consumerSettled(bus, 'USERS', audienceDurables(durable).people.durable);
      expect(await check({ userId: person.id, tokenVersion: 0 })).toEqual({ roles: [] });
      expect(await tokenVersionCheck(db)({ userId: person.id, tokenVersion: 0 })).toEqual({ roles: [] });
      // Someone who holds no role costs a card nothing: their cached entry carries no roles key.
      expect(await redis.get(`${prefix}:personv:${person.id}`)).not.toMatch(/roles/);
    } finally {
      await Promise.all(running.map((c) => c.stop()));
    }
  });

  it('refuses the token of a signed-out device from Redis, and again from the table once Redis lost both entries (issue 40)', async () => {
    const { db } = counting();
    const prefix = `${namespace}:svc`;
    const cache = new PeopleCache(redis, prefix, db);
    const durable = `caches-${randomUUID().slice(0, 8)}`;
    const running = await startAudience({ bus, db: pgSqlClient(pool), durable, logger, parts: ['people'], peopleCache: cache });
    try {
      const person = testUserSnapshot(randomUUID());
      const [phone, laptop] = [randomUUID(), randomUUID()];
      await publishEvent(bus, 'user.registered.v1', person);
      await publishEvent(bus, 'user.device.revoked.v1', { userId: person.id, deviceId: phone, expiresAt: new Date(Date.now() + 3600_000).toISOString() });
      await consumerSettled(bus, 'USERS', audienceDurables(durable).people.durable);
      const check = tokenVersionCheck(db, cache);
      expect(await check({ userId: person.id, tokenVersion: 0, sessionId: phone })).toBeNull();
      expect(await check({ userId: person.id, tokenVersion: 0, sessionId: laptop })).toEqual({ roles: [] });
      expect(await check({ userId: person.id, tokenVersion: 0 })).toEqual({ roles: [] });
      // Redis lost its data: the person's entry is filled again from the table, and the device with it.
      await redis.del(`${prefix}:personv:${person.id}`, `${prefix}:revoked-device:${phone}`);
      expect(await check({ userId: person.id, tokenVersion: 0, sessionId: laptop })).toEqual({ roles: [] });
      expect(await redis.exists(`${prefix}:revoked-device:${phone}`)).toBe(1);
      expect(await check({ userId: person.id, tokenVersion: 0, sessionId: phone })).toBeNull();
      // Without the cache, the table says the same.
      expect(await tokenVersionCheck(db)({ userId: person.id, tokenVersion: 0, sessionId: phone })).toBeNull();
      expect(await tokenVersionCheck(db)({ userId: person.id, tokenVersion: 0, sessionId: laptop })).toEqual({ roles: [] });
    } finally {
      await Promise.all(running.map((c) => c.stop()));
    }
  });
});
