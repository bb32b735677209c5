import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamNameFor, type UserSnapshot } from '@hoptrack/proto';
import { consumerSettled, memoryLogger, publishEvent, readEvents, testDatabaseUrl, testNamespace, testUserSnapshot } from '@hoptrack/testing';
import { accessOf, accessToMany, audienceSql, canSee, type Access } from '../src/audience/policy';
import { startAudience, audienceDurables } from '../src/audience/consumer';
import { tokenVersionCheck } from '../src/audience/revocation';
import { audienceMigrationDirs } from '../src/audience/tables';
import { connectBus, deleteStreams, ensureStreams, type Bus } from '../src/bus/connection';
import { INBOX_TABLE_SQL } from '../src/bus/tables';
import { startConsumer, type RunningConsumer } from '../src/bus/consumer';
import { sqlPositions } from '../src/bus/positions';
import { ensureDatabase } from '../src/db/database';
import { migrate } from '../src/db/migrate';
import { pgSqlClient } from '../src/db/pg-sql-client';
import { identifier, queryRows, sql, uuid } from '../src/db/fragment';

/**
 * The audience module (issue 19): its tables' one definition, its one
 * consumer, its one policy and the token-version check, against a real
 * Postgres and NATS, with no service around them.
 */

const { logger } = memoryLogger('audience-test');
const url = testDatabaseUrl('runtime_audience');
const legacyUrl = testDatabaseUrl('runtime_audience_legacy');
let pool: pg.Pool;
let bus: Bus;

async function columns(connectionString: string): Promise<string[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ c: string }>(
      `SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable AS c FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name IN ('users', 'follows', 'blocks', 'mutes') ORDER BY 1`,
    );
    return rows.map((r) => r.c);
  } finally {
    await client.end();
  }
}

async function resetDatabase(connectionString: string): Promise<void> {
  await ensureDatabase(connectionString);
  const client = new pg.Client({ connectionString });
  await client.connect();
  await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
  await client.end();
}

/** A service migrations folder holding one migration. */
function migrationsFolder(name: string, sql: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'audience-migrations-'));
  mkdirSync(path.join(dir, name));
  writeFileSync(path.join(dir, name, 'migration.sql'), sql);
  return dir;
}

beforeAll(async () => {
  await resetDatabase(url);
  await migrate({ connectionString: url, migrationsDir: migrationsFolder('20260101000000_service', INBOX_TABLE_SQL), include: audienceMigrationDirs(['people', 'graph']), logger });
  pool = new pg.Pool({ connectionString: url });
  bus = await connectBus({ url: 'nats://127.0.0.1:4222', name: 'audience-test', namespace: testNamespace('audience'), logger });
  await ensureStreams(bus, ['USERS', 'SOCIAL']);
});
afterAll(async () => {
  await deleteStreams(bus);
  await bus.close();
  await pool.end();
});

describe('the tables: one definition', () => {
  it('a service whose older migrations made its own users and blocks ends with exactly the tables of an empty database', async () => {
    await resetDatabase(legacyUrl);
    // Media's shape before the module: a users table with only the private switch, blocks without the index.
    const legacy = `${INBOX_TABLE_SQL}
      CREATE TABLE "users" ("id" UUID NOT NULL, "is_profile_private" BOOLEAN NOT NULL, "updated_at" TIMESTAMPTZ(6) NOT NULL, CONSTRAINT "users_pkey" PRIMARY KEY ("id"));
      CREATE TABLE "blocks" ("blocker_id" UUID NOT NULL, "blocked_id" UUID NOT NULL, CONSTRAINT "blocks_pkey" PRIMARY KEY ("blocker_id", "blocked_id"));
      INSERT INTO "users" VALUES ('00000000-0000-4000-8000-000000000001', false, now());`;
    await migrate({ connectionString: legacyUrl, migrationsDir: migrationsFolder('20261121000000_legacy', legacy), include: audienceMigrationDirs(['people', 'graph']), logger });
    expect(await columns(legacyUrl)).toEqual(await columns(url));
    // The row it had kept its switch; the columns it lacked hold their defaults until the replay.
    const client = new pg.Client({ connectionString: legacyUrl });
    await client.connect();
    const { rows } = await client.query('SELECT is_profile_private, token_version, allow_direct_messages FROM users');
    await client.end();
    expect(rows).toEqual([{ is_profile_private: false, token_version: 0, allow_direct_messages: false }]);
  });

  it('refuses a service migration named like one of the module', async () => {
    const clash = migrationsFolder('20261124000000_audience_people', 'SELECT 1');
    await expect(migrate({ connectionString: legacyUrl, migrationsDir: clash, include: audienceMigrationDirs(['people']), logger })).rejects.toThrow(/exists twice/);
  });
});

// ---------------------------------------------------------------- the consumer

let running: RunningConsumer[] = [];
const prefix = `audience-${randomUUID().slice(0, 8)}`;
const settled = async () => {
  const durables = audienceDurables(prefix);
  await consumerSettled(bus, 'USERS', durables.people.durable);
  await consumerSettled(bus, 'SOCIAL', durables.graph.durable);
};
const person = (over: Partial<UserSnapshot> = {}): UserSnapshot => ({ ...testUserSnapshot(randomUUID()), isProfilePrivate: false, ...over });

describe('the consumer', () => {
  it('deletes the durables of the read models it replaced, and applies user and social events', async () => {
    // A durable of the old per-service consumer, with events pending: it would hold every privacy change's barrier.
    await startConsumer({ bus, stream: 'USERS', durable: `${prefix}-users`, logger, handlers: { 'user.registered.v1': async () => undefined } }).then((c) => c.stop());
    running = await startAudience({ bus, db: pgSqlClient(pool), durable: prefix, logger, parts: ['people', 'graph'] });
    const names: string[] = [];
    for await (const c of await bus.jsm.consumers.list(streamNameFor(bus.namespace, 'USERS'))) names.push(c.name);
    expect(names).toContain(`${prefix}-people`);
    expect(names).not.toContain(`${prefix}-users`);

    const [a, b] = [person({ username: 'ann' }), person({ username: 'bob' })];
    await publishEvent(bus, 'user.registered.v1', a);
    await publishEvent(bus, 'user.registered.v1', b);
    await publishEvent(bus, 'social.friendship.requested.v1', { friendshipId: randomUUID(), requesterId: a.id, recipientId: b.id });
    await settled();
    const { rows: follows } = await pool.query('SELECT follower_id, followee_id, is_friend FROM follows WHERE follower_id = ANY($1::uuid[])', [[a.id, b.id]]);
    expect(follows).toEqual([{ follower_id: a.id, followee_id: b.id, is_friend: false }]);
    await publishEvent(bus, 'social.friendship.accepted.v1', { friendshipId: randomUUID(), requesterId: a.id, recipientId: b.id });
    // A stale snapshot (older updatedAt) after a newer one changes nothing.
    const renamed = { ...a, displayName: 'Ann v2', updatedAt: new Date(Date.parse(a.updatedAt) + 1000).toISOString() };
    await publishEvent(bus, 'user.updated.v1', renamed);
    await publishEvent(bus, 'user.updated.v1', { ...a, displayName: 'Ann stale' });
    await settled();
    const { rows } = await pool.query('SELECT display_name FROM users WHERE id = $1', [a.id]);
    expect(rows).toEqual([{ display_name: 'Ann v2' }]);
    const { rows: friends } = await pool.query('SELECT count(*)::int AS n FROM follows WHERE is_friend AND follower_id = ANY($1::uuid[])', [[a.id, b.id]]);
    expect(friends).toEqual([{ n: 2 }]);
    // A block ends the friendship.
    await publishEvent(bus, 'social.user.blocked.v1', { blockerId: b.id, blockedId: a.id });
    await settled();
    expect(await accessOf(pgSqlClient(pool), a.id, b.id)).toBe('blocked');
    const { rows: after } = await pool.query('SELECT count(*)::int AS n FROM follows WHERE follower_id = ANY($1::uuid[])', [[a.id, b.id]]);
    expect(after).toEqual([{ n: 0 }]);
    await Promise.all(running.map((c) => c.stop()));
  });
});

// ---------------------------------------------------------------- the policy

describe('the policy: one answer in TypeScript and in SQL', () => {
  /**
   * The viewer V, and one owner per cell. Each row: the owner's state, what
   * access(V, owner) must be, and whether V sees the owner's things.
   */
  const cells: Array<{ name: string; private: boolean | null; relation?: 'friend' | 'request' | 'blocks-viewer' | 'blocked-by-viewer' | 'mutual-friend-only'; access: Access }> = [
    { name: 'a public stranger', private: false, access: 'visible' },
    { name: 'a private stranger', private: true, access: 'private' },
    { name: 'a private friend', private: true, relation: 'friend', access: 'friend' },
    { name: 'a public friend', private: false, relation: 'friend', access: 'friend' },
    { name: 'a private person the viewer asked (pending)', private: true, relation: 'request', access: 'private' },
    { name: 'a public person who blocked the viewer', private: false, relation: 'blocks-viewer', access: 'blocked' },
    { name: 'a public person the viewer blocked', private: false, relation: 'blocked-by-viewer', access: 'blocked' },
    { name: 'a private friend of a friend', private: true, relation: 'mutual-friend-only', access: 'private' },
    { name: 'someone not heard of yet', private: null, access: 'unknown' },
  ];
  const viewer = randomUUID();
  const owners = cells.map(() => randomUUID());
  const db = () => pgSqlClient(pool);

  beforeAll(async () => {
    const middle = randomUUID();
    const insertUser = (id: string, isPrivate: boolean) =>
      pool.query(`INSERT INTO users (id, username, display_name, is_profile_private, updated_at) VALUES ($1::uuid, $1::text, $1::text, $2, now())`, [id, isPrivate]);
    await insertUser(viewer, false);
    await insertUser(middle, false);
    for (const [i, cell] of cells.entries()) {
      const owner = owners[i] as string;
      if (cell.private !== null) await insertUser(owner, cell.private);
      if (cell.relation === 'friend') await pool.query('INSERT INTO follows VALUES ($1, $2, true), ($2, $1, true)', [viewer, owner]);
      if (cell.relation === 'request') await pool.query('INSERT INTO follows VALUES ($1, $2, false)', [viewer, owner]);
      if (cell.relation === 'blocks-viewer') await pool.query('INSERT INTO blocks VALUES ($1, $2)', [owner, viewer]);
      if (cell.relation === 'blocked-by-viewer') await pool.query('INSERT INTO blocks VALUES ($1, $2)', [viewer, owner]);
      if (cell.relation === 'mutual-friend-only') {
        await pool.query('INSERT INTO follows VALUES ($1, $2, true), ($2, $1, true), ($2, $3, true), ($3, $2, true)', [viewer, middle, owner]);
      }
    }
  });

  it('access() gives each cell its expected answer, one by one and in one query', async () => {
    const one = await Promise.all(owners.map((owner) => accessOf(db(), viewer, owner)));
    const many = await accessToMany(db(), viewer, owners);
    expect(Object.fromEntries(cells.map((c, i) => [c.name, one[i]]))).toEqual(Object.fromEntries(cells.map((c) => [c.name, c.access])));
    expect(owners.map((o) => many.get(o))).toEqual(one);
    expect(await accessOf(db(), viewer, viewer)).toBe('self');
  });

  it('the SQL condition agrees with canSee(access) in every cell, self included', async () => {
    // The condition binds the viewer itself; the list of owners is the statement's own parameter, numbered after it.
    const rows = await queryRows<Array<{ id: string; sees: boolean }>>(
      db(),
      sql`SELECT o.id::text AS id, ${audienceSql.canSee(uuid(viewer), identifier('o.id'))} AS sees FROM unnest(${[...owners, viewer]}::uuid[]) AS o(id)`,
    );
    const seen = new Map(rows.map((r) => [r.id, r.sees]));
    expect(cells.map((c, i) => [c.name, seen.get(owners[i] as string)])).toEqual(cells.map((c) => [c.name, canSee(c.access)]));
    expect(seen.get(viewer)).toBe(true);
  });

  it('refuses anything but identifiers as the names its SQL builders splice (values are parameters)', () => {
    expect(() => audienceSql.canSee(uuid(viewer), identifier('s.user_id OR true --'))).toThrow(/not a column or table name/);
    expect(() => audienceSql.blockedBetween(uuid(viewer), uuid(viewer), { table: 'blocks; --', blocker: 'a', blocked: 'b' })).toThrow(/not a column or table name/);
  });
});

describe('the token-version check', () => {
  it('refuses a token older than the stored version, takes the current one, and passes someone not heard of yet', async () => {
    const id = randomUUID();
    await pool.query(`INSERT INTO users (id, username, display_name, token_version, updated_at) VALUES ($1, 'v', 'v', 2, now())`, [id]);
    const check = tokenVersionCheck(pgSqlClient(pool));
    expect(await check({ userId: id, tokenVersion: 1 })).toBeNull();
    expect(await check({ userId: id, tokenVersion: 2 })).toEqual({ roles: [] });
    expect(await check({ userId: randomUUID(), tokenVersion: 0 })).toEqual({ roles: [] });
  });
});

// ---------------------------------------------------------------- erasure (issue 24)

describe('an erased person', () => {
  it('leaves the people and graph tables at once; their tokens are refused; late events about them are skipped, not applied', async () => {
    running = await startAudience({ bus, db: pgSqlClient(pool), durable: prefix, logger, parts: ['people', 'graph'] });
    const [gone, stays, third] = [person({ username: 'gone' }), person({ username: 'stays' }), person({ username: 'third' })];
    for (const p of [gone, stays, third]) await publishEvent(bus, 'user.registered.v1', p);
    await publishEvent(bus, 'social.friendship.accepted.v1', { friendshipId: randomUUID(), requesterId: gone.id, recipientId: stays.id });
    await publishEvent(bus, 'social.friendship.accepted.v1', { friendshipId: randomUUID(), requesterId: stays.id, recipientId: third.id });
    await publishEvent(bus, 'social.friend.muted.v1', { userId: stays.id, friendId: gone.id });
    await settled();
    const check = tokenVersionCheck(pgSqlClient(pool));
    expect(await check({ userId: gone.id, tokenVersion: 0 })).toEqual({ roles: [] });
    const named = async (id: string) =>
      (
        await pool.query<{ n: number }>(
          `SELECT (SELECT count(*) FROM users u WHERE u::text LIKE '%' || $1 || '%') + (SELECT count(*) FROM follows f WHERE f::text LIKE '%' || $1 || '%')
                + (SELECT count(*) FROM mutes m WHERE m::text LIKE '%' || $1 || '%') + (SELECT count(*) FROM blocks b WHERE b::text LIKE '%' || $1 || '%') AS n`,
          [id],
        )
      ).rows[0]?.n;
    expect(Number(await named(gone.id))).toBeGreaterThan(0);

    await publishEvent(bus, 'user.deleted.v1', { userId: gone.id });
    await settled();
    expect(Number(await named(gone.id))).toBe(0);
    expect(await check({ userId: gone.id, tokenVersion: 0 })).toBeNull();
    // Someone simply not heard of yet still passes: only the erased are refused.
    expect(await check({ userId: randomUUID(), tokenVersion: 0 })).toEqual({ roles: [] });
    // Published before the deletion, delivered after: a profile update and a friendship would bring them back.
    await publishEvent(bus, 'user.updated.v1', { ...gone, displayName: 'Back?', updatedAt: new Date(Date.now() + 60_000).toISOString() });
    await publishEvent(bus, 'social.friendship.accepted.v1', { friendshipId: randomUUID(), requesterId: third.id, recipientId: gone.id });
    // A replayed deletion changes nothing.
    await publishEvent(bus, 'user.deleted.v1', { userId: gone.id });
    await settled();
    expect(Number(await named(gone.id))).toBe(0);
    // The others are untouched: their friendship stands.
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM follows WHERE is_friend AND follower_id = ANY($1::uuid[])', [[stays.id, third.id]]);
    expect(rows).toEqual([{ n: 2 }]);
    const { rows: hashes } = await pool.query<{ id_hash: string }>('SELECT id_hash FROM erased_people');
    expect(hashes.some((h) => h.id_hash.includes(gone.id))).toBe(false);
    expect(hashes.length).toBeGreaterThan(0);
    await Promise.all(running.map((c) => c.stop()));
  });
});

describe('a people read model that missed events', () => {
  it('asks auth for the changes since it was last caught up (user.changes.requested.v1), once per gap', async () => {
    const gapPrefix = `gap${randomUUID().slice(0, 6)}`;
    const positions = sqlPositions(pgSqlClient(pool));
    const stream = streamNameFor(bus.namespace, 'USERS');
    // It was caught up at the stream's end; then events came and the stream lost them (purged, as by its age).
    await positions.save(`${stream}/${gapPrefix}-people`, (await bus.jsm.streams.info(stream)).state.last_seq);
    const caughtUpAt = (await positions.load(`${stream}/${gapPrefix}-people`))?.recordedAt;
    await publishEvent(bus, 'user.registered.v1', person());
    await bus.jsm.streams.purge(stream);
    const started = await startAudience({ bus, db: pgSqlClient(pool), durable: gapPrefix, logger, parts: ['people'] });
    await Promise.all(started.map((c) => c.stop()));
    // A second start (same gap: the position did not move) asks again under the same msg id, which JetStream drops.
    await Promise.all((await startAudience({ bus, db: pgSqlClient(pool), durable: gapPrefix, logger, parts: ['people'] })).map((c) => c.stop()));
    const requests = (await readEvents(bus, 'USERS', 'user.changes.requested.v1')).filter((e) => e.data.consumer === `${gapPrefix}-people`);
    expect(requests).toHaveLength(1);
    // Since when it was last caught up, less the margin for the two clocks.
    expect(Date.parse(requests[0]?.data.since ?? '')).toBe((caughtUpAt?.getTime() ?? 0) - 3600_000);
  });
});
