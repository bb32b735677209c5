import { randomUUID } from 'node:crypto';
import type { FeedSession, PublicSession } from '@hoptrack/proto';
import { audienceDurables, createLogger, uuidsInBytes } from '@hoptrack/runtime';
import { consumersSettled, eventually, readEvents } from '@hoptrack/testing';
import { Client as S3Client } from 'minio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fanoutJobsOf, REMOVAL_EVENTS, REMOVAL_KINDS } from '../src/feed/queue';
import { startFanout } from '../src/workers/fanout/fanout-worker';
import { feedIds, jpeg, ok } from './helpers';
import { snapshot, startTestSessions, type Client, type TestSessions } from './support';

/**
 * Issue 24: on user.deleted.v1 the sessions service erases the person's
 * sessions with everything others left on them, the likes, comments and
 * reactions they left on others' sessions, their timeline and their entries
 * in everyone's, the cards and the fan-out jobs that name them, then reports
 * user.erased.v1. The others' sessions keep their content with counts that
 * no longer count the person; a replay or a late event brings nothing back.
 * (Their session photos are media's to erase: its process here runs its erasure too.)
 */
let t: TestSessions;
beforeAll(async () => {
  // The definition's own erasure consumer, beside the audience's and the cards'.
  t = await startTestSessions({}, { consumers: ['audience', 'cards', 'erasure'] });
});
afterAll(async () => {
  await t?.close();
});

const settled = async () => {
  await t.settle();
  await consumersSettled(t.bus, [
    { stream: 'USERS', durable: `${t.config.READ_MODEL_CONSUMER}-erasure` },
    { stream: 'USERS', durable: audienceDurables(t.config.READ_MODEL_CONSUMER).people.durable },
  ]);
};
const erasedReports = async (userId: string, service: string) =>
  (await readEvents(t.bus, 'USERS', 'user.erased.v1')).filter((e) => e.data.userId === userId && e.data.service === service);
const card = async (viewer: Client, id: string) => ok<FeedSession>(await viewer.get(`/api/sessions/${id}`));

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Every row of every table of the service's database whose text holds one of the needles. */
async function rowsNaming(...needles: string[]): Promise<string[]> {
  const tables = await t.prisma.$queryRawUnsafe<Array<{ name: string }>>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name !~ 'migrations$' ORDER BY 1`,
  );
  expect(tables.map((r) => r.name)).toEqual(expect.arrayContaining(['beer_sessions', 'likes', 'comments', 'reactions', 'users', 'follows', 'outbox', 'erased_people']));
  const hits: string[] = [];
  for (const { name } of tables) {
    const rows = await t.prisma.$queryRawUnsafe<Array<{ row: string }>>(`SELECT t::text AS row FROM "${name}" t WHERE t::text ILIKE ANY($1::text[])`, needles.map(like));
    hits.push(...rows.map((r) => `${name}: ${r.row}`));
  }
  return hits;
}

async function tableSizes(): Promise<Record<string, number>> {
  const sizes: Record<string, number> = {};
  for (const name of ['beer_sessions', 'likes', 'comments', 'reactions', 'users', 'follows', 'outbox', 'erased_people']) {
    const [row] = await t.prisma.$queryRawUnsafe<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM "${name}"`);
    sizes[name] = row?.n ?? 0;
  }
  return sizes;
}

/** Every key of this run's namespace (timelines, cards, people, the fan-out queue) whose name or value holds the needle. */
async function redisNaming(needle: string): Promise<string[]> {
  const wanted = needle.toLowerCase();
  const keys = new Set<string>();
  let cursor = '0';
  do {
    const [next, batch] = await t.redis.scan(cursor, 'MATCH', `${t.config.BUS_NAMESPACE}:*`, 'COUNT', 1000);
    cursor = next;
    for (const key of batch) keys.add(key);
  } while (cursor !== '0');
  const hits: string[] = [];
  for (const key of keys) {
    const type = await t.redis.type(key);
    let texts: string[] = [];
    if (type === 'string') texts = [(await t.redis.get(key)) ?? ''];
    else if (type === 'hash') texts = Object.entries(await t.redis.hgetall(key)).flat();
    else if (type === 'list') texts = await t.redis.lrange(key, 0, -1);
    else if (type === 'set') texts = await t.redis.smembers(key);
    // Timeline members hold ids as 16-byte words (session, author): read as uuids.
    else if (type === 'zset') texts = (await t.redis.zrangeBuffer(key, 0, -1)).map((m) => (m.length === 32 ? uuidsInBytes(m).join(' ') : m.toString()));
    else if (type === 'stream') texts = (await t.redis.xrange(key, '-', '+')).map(([, fields]) => fields.join(' '));
    if ([key, ...texts].some((text) => text.toLowerCase().includes(wanted))) hits.push(`${type} ${key}`);
  }
  return hits;
}

/** The keys of the objects media stored for this run (its own S3 server). */
async function storedObjects(): Promise<string[]> {
  const url = new URL(t.s3.endpoint);
  const s3 = new S3Client({ endPoint: url.hostname, port: Number(url.port), useSSL: false, accessKey: 'S3RVER', secretKey: 'S3RVER', region: 'us-east-1', pathStyle: true });
  const keys: string[] = [];
  for await (const item of s3.listObjectsV2('sessions-test', '', true) as AsyncIterable<{ name?: string }>) if (item.name) keys.push(item.name);
  return keys;
}

describe('erasing a deleted account', () => {
  it('removes everything naming the person from Postgres and Redis, corrects the others’ counts, and nothing comes back', async () => {
    const [gone, ann, bob, cy] = [await t.user(), await t.user(), await t.user(), await t.user()];
    for (const [a, b] of [[gone, ann], [ann, bob], [gone, bob], [ann, cy], [gone, cy]] as const) await t.befriend(a, b);

    // Their session (with a photo) and what others left on it; others' sessions and what they left there.
    const theirs = await t.logSession(gone, { title: 'Gone pints' }, { data: await jpeg() });
    const annSession = await t.logSession(ann, { title: 'Ann pints' });
    const bobSession = await t.logSession(bob, { title: 'Bob pints' });
    ok(await ann.post(`/api/sessions/${theirs.id}/like`));
    ok(await ann.post(`/api/sessions/${theirs.id}/comments`, { content: 'Nice one' }), 201);
    ok(await bob.post(`/api/sessions/${theirs.id}/react`, { emoji: '🍺' }), 201);
    for (const session of [annSession, bobSession]) {
      ok(await gone.post(`/api/sessions/${session.id}/like`));
      ok(await gone.post(`/api/sessions/${session.id}/comments`, { content: 'Cheers from me' }), 201);
      ok(await gone.post(`/api/sessions/${session.id}/react`, { emoji: '🍺' }), 201);
    }
    ok(await bob.post(`/api/sessions/${annSession.id}/like`));
    ok(await cy.post(`/api/sessions/${annSession.id}/react`, { emoji: '🍺' }), 201);
    ok(await cy.post(`/api/sessions/${annSession.id}/comments`, { content: 'Prost' }), 201);
    await settled();
    // Timelines built and cards cached, as reading does.
    for (const viewer of [gone, ann, bob, cy]) await feedIds(viewer);
    expect(await feedIds(ann)).toContain(theirs.id);
    expect(await card(bob, annSession.id)).toMatchObject({ likeCount: 2, commentCount: 2, reactions: [{ emoji: '🍺', count: 2 }] });
    expect((await storedObjects()).filter((key) => key.includes(gone.id))).toHaveLength(1);

    expect((await rowsNaming(gone.id)).length).toBeGreaterThan(5);
    expect((await redisNaming(gone.id)).length).toBeGreaterThan(3);
    // Their entries are in the others' timelines, not only their own.
    expect((await redisNaming(gone.id)).filter((hit) => hit.startsWith('zset ') && !hit.endsWith(gone.id)).length).toBeGreaterThan(0);

    await t.publish('user.deleted.v1', { userId: gone.id });
    await eventually(async () => (await erasedReports(gone.id, 'sessions')).length === 1, 'user.erased.v1 from sessions');
    await eventually(async () => (await erasedReports(gone.id, 'media')).length === 1, 'user.erased.v1 from media');
    await settled();

    expect(await rowsNaming(gone.id)).toEqual([]);
    expect(await redisNaming(gone.id)).toEqual([]);
    // Their session photo went with media's part.
    expect((await storedObjects()).filter((key) => key.includes(gone.id))).toEqual([]);

    // The others' sessions stand, counted without the person.
    expect(await card(bob, annSession.id)).toMatchObject({
      title: 'Ann pints',
      likeCount: 1,
      likes: [{ userId: bob.id }],
      commentCount: 1,
      comments: [{ userId: cy.id, content: 'Prost' }],
      reactions: [{ emoji: '🍺', count: 1, users: [{ id: cy.id }] }],
    });
    expect(await card(ann, bobSession.id)).toMatchObject({ likeCount: 0, commentCount: 0, reactions: [] });
    expect(ok<PublicSession[]>(await bob.get(`/api/users/${ann.id}/sessions`))).toMatchObject([{ id: annSession.id, likesCount: 1 }]);
    // Their session is gone from every feed; the others' feeds are intact.
    expect((await ann.get(`/api/sessions/${theirs.id}`)).statusCode).toBe(404);
    expect((await feedIds(ann)).sort()).toEqual([annSession.id, bobSession.id].sort());
    expect((await feedIds(bob)).sort()).toEqual([annSession.id, bobSession.id].sort());
    expect(await feedIds(cy)).toEqual([annSession.id]);
    // Their token is refused from now on: they cannot like anything any more.
    expect((await gone.post(`/api/sessions/${annSession.id}/like`)).statusCode).toBe(401);

    // The deletion again (a new envelope): reported again, nothing changes.
    const sizes = await tableSizes();
    await t.publish('user.deleted.v1', { userId: gone.id });
    await eventually(async () => (await erasedReports(gone.id, 'sessions')).length === 2, 'second user.erased.v1');
    await settled();
    expect(await tableSizes()).toEqual(sizes);

    // Late events about them (published before the deletion, delivered after): nothing comes back.
    const late = randomUUID();
    const at = new Date().toISOString();
    await t.publish('session.created.v1', { sessionId: late, userId: gone.id, beerCount: 1, duration: 30, title: 'Late', beerTypes: [], location: null, hasMusic: false, createdAt: at, updatedAt: at });
    await t.publish('session.liked.v1', { sessionId: annSession.id, ownerId: ann.id, userId: gone.id });
    await t.publish('social.friendship.accepted.v1', { friendshipId: randomUUID(), requesterId: gone.id, recipientId: ann.id });
    await t.publish('social.friend.unmuted.v1', { userId: gone.id, friendId: bob.id });
    await t.publish('user.updated.v1', { ...snapshot(gone.id), updatedAt: new Date(Date.now() + 60_000).toISOString() });
    await settled();
    for (const viewer of [ann, bob, cy]) await feedIds(viewer);
    expect(await card(bob, annSession.id)).toMatchObject({ likeCount: 1, commentCount: 1 });
    expect(await rowsNaming(gone.id)).toEqual([]);
    expect(await redisNaming(gone.id)).toEqual([]);
    expect(await tableSizes()).toEqual(sizes);
  });

  it('sweeps the timelines of the people who follow them, and an unfollow the fan-out applies after the erasure still takes their entries out', async () => {
    const [gone, dora, eve] = [await t.user(), await t.user(), await t.user()];
    await t.befriend(gone, dora);
    await t.befriend(gone, eve);
    const theirs = await t.logSession(gone, { title: 'Leaving soon' });
    for (const viewer of [dora, eve]) expect(await feedIds(viewer)).toContain(theirs.id);
    const holds = async (viewer: Client) => (await t.timelines.members(viewer.id)).some((m) => m.startsWith(`${gone.id}:`));
    expect(await holds(dora)).toBe(true);

    // Dora unfriends them: the graph's read model applies it at once, the fan-out (held) not yet.
    await t.fanout.stop();
    const graph = audienceDurables(t.config.READ_MODEL_CONSUMER).graph.durable;
    await t.publish('social.friendship.removed.v1', { userId: dora.id, friendId: gone.id });
    await consumersSettled(t.bus, [{ stream: 'SOCIAL', durable: graph }]);
    const follows = async () => t.prisma.$queryRawUnsafe<Array<{ n: number }>>('SELECT count(*)::int AS n FROM follows WHERE follower_id = $1::uuid AND followee_id = $2::uuid', dora.id, gone.id);
    expect(await follows()).toEqual([{ n: 0 }]);

    await t.publish('user.deleted.v1', { userId: gone.id });
    await eventually(async () => (await erasedReports(gone.id, 'sessions')).length === 1, 'user.erased.v1 from sessions');
    await consumersSettled(t.bus, [{ stream: 'USERS', durable: `${t.config.READ_MODEL_CONSUMER}-erasure` }]);
    // A follower's timeline was swept; Dora, who no longer follows them, was not: her unfriend's fan-out is to come.
    expect(await holds(eve)).toBe(false);
    expect(await holds(dora)).toBe(true);

    // The fan-out runs the unfriend although it names an erased person: a removal writes nothing of theirs.
    const again = await startFanout({ config: t.config, connections: t, logger: createLogger('sessions-test', 'silent') });
    try {
      await settled();
      expect(await holds(dora)).toBe(false);
      expect(await redisNaming(gone.id)).toEqual([]);
      expect(await feedIds(dora)).not.toContain(theirs.id);
    } finally {
      await again.stop();
    }
  });

  it('lets through only events whose fan-out work removes entries', () => {
    const id = randomUUID();
    // Every field an id or a date: enough for each event's jobs to be built.
    const data = new Proxy({}, { get: (_target, name) => (name === 'createdAt' ? new Date().toISOString() : id) });
    for (const type of REMOVAL_EVENTS) {
      const jobs = fanoutJobsOf({ id: randomUUID(), type, data } as Parameters<typeof fanoutJobsOf>[0]);
      expect(jobs.length, type).toBeGreaterThan(0);
      for (const { job } of jobs) expect(REMOVAL_KINDS.has(job.kind), `${type} → ${job.kind}`).toBe(true);
    }
    // And the events that write are not among them.
    for (const type of ['session.created.v1', 'social.friendship.accepted.v1', 'social.friend.unmuted.v1'] as const) expect(REMOVAL_EVENTS.has(type)).toBe(false);
  });
});

describe('the audience consumer alone applying a deletion (its erasure not run yet)', () => {
  let alone: TestSessions;
  beforeAll(async () => {
    alone = await startTestSessions({}, { consumers: ['audience', 'cards'] });
  });
  afterAll(async () => {
    await alone?.close();
  });

  it('takes the person out of their followers’ timelines before their graph rows, which list those followers, go', async () => {
    const [gone, fan] = [await alone.user(), await alone.user()];
    await alone.befriend(gone, fan);
    const theirs = await alone.logSession(gone, { title: 'Last round' });
    expect(await feedIds(fan)).toContain(theirs.id);
    const holds = async () => (await alone.timelines.members(fan.id)).some((m) => m.startsWith(`${gone.id}:`));
    expect(await holds()).toBe(true);

    await alone.publish('user.deleted.v1', { userId: gone.id });
    await alone.settle();
    await consumersSettled(alone.bus, [{ stream: 'USERS', durable: audienceDurables(alone.config.READ_MODEL_CONSUMER).people.durable }]);
    // The graph rows are gone (so the erasure, whenever it runs, finds no followers to sweep) and so are the entries.
    const follows = await alone.prisma.$queryRawUnsafe<Array<{ n: number }>>('SELECT count(*)::int AS n FROM follows WHERE followee_id = $1::uuid', gone.id);
    expect(follows).toEqual([{ n: 0 }]);
    expect(await holds()).toBe(false);
  });
});
