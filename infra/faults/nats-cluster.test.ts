import type { EventEnvelope, EventType, StreamName } from '@hoptrack/proto';
import { streamNameFor } from '@hoptrack/proto';
import { connectBus, createLogger, type Bus } from '@hoptrack/runtime';
import { eventually, readEvents, testDatabaseSuffix, testNamespace } from '@hoptrack/testing';
import { callApi, makeFriends, registerUser, type RegisteredUser } from '@hoptrack/testing/api';
import { tally, timelineSessionIds } from '@hoptrack/testing/faults';
import { openLive, type LiveClient } from '@hoptrack/testing/live';
import { pendingWork } from '@hoptrack/testing/metrics';
import { privateNatsCluster, type ClusterNode, type PrivateNatsCluster } from '@hoptrack/testing/servers';
import { pgBase, startStack, type Stack } from '@hoptrack/testing/stack';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROCESSES } from '../build/catalogue';

/**
 * Issue 38, item 5: NATS as production runs it — a three-node JetStream
 * cluster (NATS_STREAM_REPLICAS=3) under the whole stack, with people
 * creating sessions, liking each other's and writing messages through the
 * gateway all along.
 *
 * 1. The node leading the SESSIONS stream is killed (-9) mid-traffic and
 *    started again later: the services keep answering (5xx counted, with
 *    when they happened relative to the kill and the election).
 * 2. All three nodes are killed for NATS_OUTAGE_MS (30 s): writes keep being
 *    acknowledged (the outbox holds their events), reads keep answering, a
 *    live stream opened before the outage delivers again once the cluster is
 *    back, and every backlog drains.
 *
 * After each phase, against what the clients were told: every acknowledged
 * write stored once in its stream, applied by every durable consumer of its
 * type (the inboxes' processed_events), on every friend's timeline (the
 * fan-out), and one notification each for a like or a message. Lost and
 * doubled must be 0.
 */
const PEOPLE = 4;
/** Each person acts about every PACE_MS: steady traffic, not a flood (2 cores run 11 processes and 3 NATS nodes). */
const PACE_MS = 150;
const OUTAGE_MS = Number(process.env.NATS_OUTAGE_MS ?? 30_000);
/** Backlogs left by a fault drain within this (a consumer's missed pull is re-issued after its heartbeat lapses). */
const DRAIN_BOUND_MS = 240_000;
const DATABASE_SUFFIX = `_e2e${testDatabaseSuffix()}`;
const namespace = testNamespace('natscluster');
const logger = createLogger('nats-cluster-test', 'silent');

let cluster: PrivateNatsCluster;
let stack: Stack;
let bus: Bus;
let redis: Redis;
const people: RegisteredUser[] = [];

beforeAll(async () => {
  cluster = await privateNatsCluster();
  stack = await startStack({
    mode: 'e2e',
    namespace,
    databaseSuffix: DATABASE_SUFFIX,
    serveWeb: false,
    env: { NATS_URL: cluster.url, NATS_STREAM_REPLICAS: '3', GATEWAY_RATE_LIMIT_MAX: '1000000', LOG_LEVEL: 'warn' },
  });
  bus = await connectBus({ url: cluster.url, name: 'nats-cluster-test', namespace, logger });
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
}, 300_000);

afterAll(async () => {
  // The stack drops its streams through the cluster (its NATS_URL): every node must be up for that.
  if (cluster) {
    for (const node of cluster.nodes) await node.start().catch(() => undefined);
    await cluster.ready().catch(() => undefined);
  }
  redis?.disconnect();
  await bus?.close().catch(() => undefined);
  await stack?.stop();
  await cluster?.stop();
}, 120_000);

/** What the clients were told was done. */
interface Writes {
  sessions: Array<{ id: string; author: RegisteredUser }>;
  likes: Array<{ sessionId: string; owner: RegisteredUser; liker: RegisteredUser }>;
  messages: Array<{ id: string; from: RegisteredUser; to: RegisteredUser }>;
  /** Writes answered 5xx or cut off: stored or not, nobody knows. */
  unknown: number;
}

interface Sample {
  at: number;
  what: string;
  write: boolean;
  status: number;
}

/** Every session acknowledged so far, by author, across phases: what the likes pick from. */
const sessionsBy = new Map<string, string[]>();
/** `session:liker` already liked: each like is a change (a repeat publishes nothing). */
const liked = new Set<string>();

interface Traffic {
  writes: Writes;
  samples: Sample[];
  stop(): Promise<void>;
}

/** Each person in a lane of their own: a session, a like of a friend's session, a message to a friend, a read of the feed or the bell. */
function startTraffic(baseUrl: string): Traffic {
  const writes: Writes = { sessions: [], likes: [], messages: [], unknown: 0 };
  const samples: Sample[] = [];
  let running = true;
  const timed = async (what: string, write: boolean, call: () => Promise<number>) => {
    const status = await call().catch(() => 599);
    if (write && status >= 500) writes.unknown += 1;
    samples.push({ at: Date.now(), what, write, status });
  };
  const actions: Array<(me: RegisteredUser, friend: RegisteredUser) => Promise<void>> = [
    (me) =>
      timed('session', true, async () => {
        const form = new FormData();
        form.append('title', 'Cluster stout');
        const res = await fetch(`${baseUrl}/api/sessions`, { method: 'POST', headers: { authorization: `Bearer ${me.token}` }, body: form });
        if (res.status === 201) {
          const { id } = (await res.json()) as { id: string };
          writes.sessions.push({ id, author: me });
          (sessionsBy.get(me.id) ?? sessionsBy.set(me.id, []).get(me.id))?.push(id);
        }
        return res.status;
      }),
    async (me, friend) => {
      const sessionId = (sessionsBy.get(friend.id) ?? []).findLast((id) => !liked.has(`${id}:${me.id}`));
      if (!sessionId) return;
      liked.add(`${sessionId}:${me.id}`);
      await timed('like', true, async () => {
        const answer = await callApi(baseUrl, me.token, 'POST', `/api/sessions/${sessionId}/like`);
        if (answer.status === 200) writes.likes.push({ sessionId, owner: friend, liker: me });
        return answer.status;
      });
    },
    (me, friend) =>
      timed('message', true, async () => {
        const answer = await callApi(baseUrl, me.token, 'POST', '/api/messages', { toUserId: friend.id, content: `cluster ${Date.now()}` });
        if (answer.status === 201) writes.messages.push({ id: (answer.body as { id: string }).id, from: me, to: friend });
        return answer.status;
      }),
    (me) => timed('feed', false, async () => (await callApi(baseUrl, me.token, 'GET', '/api/sessions?filter=all')).status),
    (me) => timed('bell', false, async () => (await callApi(baseUrl, me.token, 'GET', '/api/notifications')).status),
  ];
  const lanes = people.map(async (me, i) => {
    const friend = people[(i + 1) % PEOPLE] as RegisteredUser;
    while (running) {
      const started = Date.now();
      await (actions[Math.floor(Math.random() * actions.length)] as (me: RegisteredUser, friend: RegisteredUser) => Promise<void>)(me, friend);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, PACE_MS - (Date.now() - started))));
    }
  });
  return {
    writes,
    samples,
    async stop() {
      running = false;
      await Promise.all(lanes);
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What is still waiting anywhere: outbox rows, consumer backlog, queued or running jobs. */
const backlog = () => pendingWork(Object.entries(stack.instances).flatMap(([name, list]) => list.map((proc) => ({ name: `${name}@${proc.port}`, url: proc.url }))));

/** Waits until every backlog drained: how long it took, and the last backlog seen before (what the drain waited for). */
async function drained(): Promise<{ ms: number; last: string[] }> {
  const started = Date.now();
  let last: string[] = [];
  await expect
    .poll(
      async () => {
        const waiting = await backlog();
        if (waiting.length > 0) last = waiting;
        return waiting;
      },
      { timeout: DRAIN_BOUND_MS, interval: 500 },
    )
    .toEqual([]);
  return { ms: Date.now() - started, last };
}

/** The databases whose inboxes (processed_events) record what their consumers applied. */
const DATABASES = [...new Set(PROCESSES.flatMap((p) => (p.database ? [p.database] : [])))];

async function query<R extends pg.QueryResultRow>(database: string, text: string, values: unknown[]): Promise<R[]> {
  const client = new pg.Client({ connectionString: `${pgBase()}/${database}${DATABASE_SUFFIX}` });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** What a write is, in its stream: the key its event carries. */
const WRITE_STREAMS: StreamName[] = ['SESSIONS', 'MESSAGES'];
function keyOf(event: EventEnvelope): string | null {
  // The envelope is not a union by type: each case reads the data of its type.
  const as = <T extends EventType>(_type: T) => (event as EventEnvelope<T>).data;
  switch (event.type) {
    case 'session.created.v1':
      return `session ${as('session.created.v1').sessionId}`;
    case 'session.liked.v1':
      return `like ${as('session.liked.v1').sessionId}:${as('session.liked.v1').userId}`;
    case 'message.sent.v1':
      return `message ${as('message.sent.v1').messageId}`;
    default:
      return null;
  }
}
const expectedKeys = (writes: Writes) => [
  ...writes.sessions.map((s) => `session ${s.id}`),
  ...writes.likes.map((l) => `like ${l.sessionId}:${l.liker.id}`),
  ...writes.messages.map((m) => `message ${m.id}`),
];

/** Every write event stored in the streams, by key: event ids (more than one is a doubled write), and the type of each. */
async function storedWrites(): Promise<Map<string, { type: string; ids: string[] }>> {
  const stored = new Map<string, { type: string; ids: string[] }>();
  for (const stream of WRITE_STREAMS) {
    for (const event of await readEvents(bus, stream)) {
      const key = keyOf(event);
      if (!key) continue;
      const entry = stored.get(key) ?? stored.set(key, { type: event.type, ids: [] }).get(key);
      entry?.ids.push(event.id);
    }
  }
  return stored;
}

/** `database/consumer` of every durable consumer that applies events of each write type, seen from events it applied. */
async function consumersByType(keys: string[]): Promise<Map<string, Set<string>>> {
  const stored = await storedWrites();
  const typeOf = new Map<string, string>();
  for (const key of keys) for (const id of stored.get(key)?.ids ?? []) typeOf.set(id, stored.get(key)?.type as string);
  const byType = new Map<string, Set<string>>();
  for (const database of DATABASES) {
    const [{ exists } = { exists: false }] = await query<{ exists: boolean }>(database, `SELECT to_regclass('processed_events') IS NOT NULL AS "exists"`, []);
    if (!exists) continue;
    for (const row of await query<{ consumer: string; event_id: string }>(database, 'SELECT consumer, event_id::text FROM processed_events WHERE event_id = ANY($1::uuid[])', [[...typeOf.keys()]])) {
      const type = typeOf.get(row.event_id) as string;
      (byType.get(type) ?? byType.set(type, new Set()).get(type))?.add(`${database}/${row.consumer}`);
    }
  }
  return byType;
}

interface Check {
  /** Acknowledged writes, or copies of them, that are missing somewhere. */
  lost: string[];
  /** Copies beyond the first of an acknowledged write, anywhere. */
  doubled: number;
  /** How many consumer applications were looked for. */
  applications: number;
}

/**
 * Every acknowledged write of the phase, everywhere it must be: once in its
 * stream; applied by every consumer of its type; on every friend's timeline;
 * its like counted and notified once; its message once in the conversation
 * and notified once.
 */
async function verify(writes: Writes, consumers: Map<string, Set<string>>): Promise<Check> {
  const lost: string[] = [];
  let doubled = 0;
  const stored = await storedWrites();
  // 1. Once in its stream (JetStream's duplicate window drops a re-published copy).
  for (const key of expectedKeys(writes)) {
    const copies = stored.get(key)?.ids.length ?? 0;
    if (copies === 0) lost.push(`${key}: not in its stream`);
    doubled += Math.max(0, copies - 1);
  }
  // 2. Applied by every durable consumer of its type (each inbox's record of it).
  let applications = 0;
  for (const database of DATABASES) {
    const wanted = expectedKeys(writes).flatMap((key) => {
      const entry = stored.get(key);
      return [...(consumers.get(entry?.type ?? '') ?? [])].filter((c) => c.startsWith(`${database}/`)).map((c) => ({ key, consumer: c.slice(database.length + 1), id: entry?.ids[0] as string }));
    });
    if (wanted.length === 0) continue;
    applications += wanted.length;
    const rows = await query<{ consumer: string; event_id: string }>(database, 'SELECT consumer, event_id::text FROM processed_events WHERE event_id = ANY($1::uuid[])', [
      [...new Set(wanted.map((w) => w.id))],
    ]);
    const applied = new Set(rows.map((r) => `${r.consumer} ${r.event_id}`));
    lost.push(...wanted.filter((w) => !applied.has(`${w.consumer} ${w.id}`)).map((w) => `${w.key}: not applied by ${database}/${w.consumer}`));
  }
  // 3. The fan-out: on the timeline of each friend of the author (the ring's neighbours), once. Read in Redis: every
  // timeline was rebuilt from Postgres at its first read, before the faults, and since then only the fan-out writes it.
  for (const friend of people) {
    const i = people.indexOf(friend);
    const friendsOf = new Set([people[(i + 1) % PEOPLE]?.id, people[(i + PEOPLE - 1) % PEOPLE]?.id]);
    const expected = writes.sessions.filter((s) => friendsOf.has(s.author.id)).map((s) => s.id);
    const onTimeline = (await timelineSessionIds(redis, namespace, friend.id)).filter((id) => expected.includes(id));
    const counted = tally(expected, onTimeline);
    if (counted.lost > 0) lost.push(`${counted.lost} sessions missing from ${friend.username}'s timeline`);
    doubled += counted.extraCopies;
  }
  // 4. Likes: counted once each, and one notification each to the owner.
  const likeNotes = await query<{ target_id: string; source_id: string; n: number }>(
    'hoptrack_notifications',
    `SELECT n.target_id::text, a.source_id, count(*)::int AS n FROM notification_actors a JOIN notifications n ON n.id = a.notification_id
     WHERE a.kind = 'session.liked' AND n.target_id = ANY($1::uuid[]) GROUP BY 1, 2`,
    [[...new Set(writes.likes.map((l) => l.sessionId))]],
  );
  const likeNoted = new Map(likeNotes.map((r) => [`${r.target_id}:${r.source_id}`, r.n]));
  const likersOf = new Map<string, number>();
  for (const like of writes.likes) {
    const n = likeNoted.get(`${like.sessionId}:${like.liker.id}`) ?? 0;
    if (n === 0) lost.push(`like ${like.sessionId}:${like.liker.id}: no notification`);
    doubled += Math.max(0, n - 1);
    likersOf.set(like.sessionId, (likersOf.get(like.sessionId) ?? 0) + 1);
  }
  for (const [sessionId, likers] of likersOf) {
    // The count holds the session's likes of every phase: at least this phase's acknowledged ones, at most every like
    // tried on it (nobody likes a session twice), so more than that is a like stored twice.
    const all = [...liked].filter((k) => k.startsWith(`${sessionId}:`)).length;
    const { likeCount } = (await callApi(stack.baseUrl, people[0]?.token as string, 'GET', `/api/sessions/${sessionId}`)).body as { likeCount: number };
    if (likeCount < likers) lost.push(`likes of ${sessionId}: ${likeCount} < ${likers}`);
    doubled += Math.max(0, likeCount - all);
  }
  // 5. Messages: once in the conversation, one notification each to the recipient.
  const messageNotes = await query<{ source_id: string; n: number }>(
    'hoptrack_notifications',
    `SELECT a.source_id, count(*)::int AS n FROM notification_actors a WHERE a.kind = 'message.received' AND a.source_id = ANY($1::text[]) GROUP BY 1`,
    [writes.messages.map((m) => m.id)],
  );
  const messageNoted = new Map(messageNotes.map((r) => [r.source_id, r.n]));
  const conversations = new Map<string, string[]>();
  for (const message of writes.messages) {
    const n = messageNoted.get(message.id) ?? 0;
    if (n === 0) lost.push(`message ${message.id}: no notification`);
    doubled += Math.max(0, n - 1);
    const key = `${message.from.id}>${message.to.id}`;
    (conversations.get(key) ?? conversations.set(key, []).get(key))?.push(message.id);
  }
  for (const [key, ids] of conversations) {
    const message = writes.messages.find((m) => `${m.from.id}>${m.to.id}` === key) as Writes['messages'][number];
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: Response = await fetch(`${stack.baseUrl}/api/messages/${message.to.id}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
        headers: { authorization: `Bearer ${message.from.token}` },
      });
      for (const m of (await res.json()) as Array<{ id: string }>) seen.push(m.id);
      cursor = res.headers.get('x-next-cursor');
    } while (cursor);
    const counted = tally(ids, seen);
    if (counted.lost > 0) lost.push(`${counted.lost} messages missing from ${key}`);
    doubled += counted.extraCopies;
  }
  return { lost, doubled, applications };
}

const fivexx = (samples: Sample[]) => samples.filter((s) => s.status >= 500);
const acknowledged = (writes: Writes) => `${writes.sessions.length} sessions, ${writes.likes.length} likes, ${writes.messages.length} messages`;

/** The node leading each stream now (null while none is elected, or the question times out). */
async function leaders(streams: StreamName[]): Promise<Map<StreamName, ClusterNode | null>> {
  const found = await Promise.all(streams.map(async (s) => [s, await cluster.leaderOf(streamNameFor(namespace, s)).catch(() => null)] as const));
  return new Map(found);
}

/** The write types' consumers, learnt from writes made while the cluster is whole. */
let consumers: Map<string, Set<string>>;

describe('NATS as production runs it: a three-node JetStream cluster, R3 streams', () => {
  it('loses and doubles no acknowledged write when the stream leader is killed mid-traffic, and keeps answering', { timeout: 600_000 }, async () => {
    for (let i = 0; i < PEOPLE; i++) people.push(await registerUser(stack.baseUrl, `natsc${i}`));
    // A ring: each person is friends with the one before and the one after.
    for (let i = 0; i < PEOPLE; i++) await makeFriends(stack.baseUrl, people[i] as RegisteredUser, people[(i + 1) % PEOPLE] as RegisteredUser);
    // Warm-up on a whole cluster: which consumers apply sessions, likes and messages.
    const warm = startTraffic(stack.baseUrl);
    await eventually(() => warm.writes.sessions.length >= 2 && warm.writes.likes.length >= 1 && warm.writes.messages.length >= 1, 'a write of each kind', 60_000);
    await warm.stop();
    await drained();
    consumers = await consumersByType(expectedKeys(warm.writes));
    // Each timeline built (and marked complete) now: from here on only the fan-out adds to it, which the checks count.
    for (const person of people) expect((await callApi(stack.baseUrl, person.token, 'GET', '/api/sessions?filter=all')).status).toBe(200);
    for (const type of ['session.created.v1', 'session.liked.v1', 'message.sent.v1']) expect([...(consumers.get(type) ?? [])], `consumers of ${type}`).not.toEqual([]);

    const traffic = startTraffic(stack.baseUrl);
    await sleep(4000);
    const before = await leaders(['SESSIONS', 'MESSAGES', 'NOTIFICATIONS']);
    const victim = before.get('SESSIONS');
    if (!victim) throw new Error('the SESSIONS stream has no leader');
    const led = [...before].filter(([, node]) => node === victim).map(([stream]) => stream);
    const killedAt = Date.now();
    await victim.kill();
    // The election: every stream the victim led has a leader on another node.
    await eventually(async () => [...(await leaders(led)).values()].every((node) => node && node !== victim), 'new leaders elected', 120_000);
    const electedMs = Date.now() - killedAt;
    await sleep(8000);
    const restartedAt = Date.now();
    await victim.start();
    await cluster.ready();
    const rejoinedMs = Date.now() - restartedAt;
    await sleep(4000);
    await traffic.stop();
    const { ms: drainMs } = await drained();
    const check = await verify(traffic.writes, consumers);

    const errors = fivexx(traffic.samples);
    const window = errors.length > 0 ? `${Math.min(...errors.map((s) => s.at)) - killedAt}..${Math.max(...errors.map((s) => s.at)) - killedAt} ms after the kill` : 'none';
    console.info(
      `[figure] NATS cluster, stream leader (${victim.name}, leading ${led.join(', ')}) killed -9 mid-traffic: ${traffic.samples.length} requests, ` +
        `acknowledged ${acknowledged(traffic.writes)}; 5xx ${errors.length} (${errors.map((s) => `${s.what} ${s.status}`).join(', ') || 'none'}; window: ${window}); ` +
        `new leaders elected ${electedMs} ms after the kill, node rejoined ${rejoinedMs} ms after its restart; drained ${drainMs} ms after traffic stopped; ` +
        `${check.applications} consumer applications checked; lost ${check.lost.length}, doubled ${check.doubled}`,
    );
    expect(check.lost).toEqual([]);
    expect(check.doubled).toBe(0);
    // The services keep answering: writes go to the outbox first, so no answer waits on the election.
    expect(errors.map((s) => `${s.what} ${s.status} at +${s.at - killedAt} ms`)).toEqual([]);
    for (const kind of ['sessions', 'likes', 'messages'] as const) expect(traffic.writes[kind].length, kind).toBeGreaterThan(0);
  });

  it(`acknowledges writes through a ${OUTAGE_MS / 1000} s outage of the whole cluster, reconnects live streams, and drains`, { timeout: 600_000 }, async () => {
    expect(consumers, 'the leader-kill test learnt the consumers').toBeDefined();
    // people[0] writes to people[1] in the traffic: people[1]'s live stream hears each message.
    const listener = people[1] as RegisteredUser;
    const live: LiveClient = await openLive(stack.baseUrl, listener.token);
    let liveEnded = false;
    void live.ended.then(() => (liveEnded = true));

    const traffic = startTraffic(stack.baseUrl);
    await sleep(4000);
    const downAt = Date.now();
    await Promise.all(cluster.nodes.map((node) => node.kill()));
    await sleep(OUTAGE_MS);
    const upAt = Date.now();
    await Promise.all(cluster.nodes.map((node) => node.start()));
    await cluster.ready();
    const readyMs = Date.now() - upAt;
    const during = traffic.samples.filter((s) => s.at >= downAt && s.at < upAt);
    // A write made after the cluster is back reaches the stream opened before the outage.
    const after = await callApi(stack.baseUrl, (people[0] as RegisteredUser).token, 'POST', '/api/messages', { toUserId: listener.id, content: 'after the outage' });
    expect(after.status).toBe(201);
    const afterId = (after.body as { id: string }).id;
    traffic.writes.messages.push({ id: afterId, from: people[0] as RegisteredUser, to: listener });
    const liveBack = await live
      .waitFor((e) => e.event === 'message' && (e.data as { messageId: string }).messageId === afterId, 'the live stream delivers after the outage', DRAIN_BOUND_MS)
      .then(() => Date.now() - upAt)
      .catch(() => null);
    await sleep(4000);
    await traffic.stop();
    const drain = await drained();
    const drainMs = Date.now() - upAt;
    const check = await verify(traffic.writes, consumers);
    // Every message to the listener, those written during the outage too, reached the stream opened before it.
    const toListener = traffic.writes.messages.filter((m) => m.to.id === listener.id).map((m) => m.id);
    const onLive = live.events.filter((e) => e.event === 'message').map((e) => (e.data as { messageId: string }).messageId);
    const liveTally = tally(toListener, onLive);
    live.close();

    const writesDown = during.filter((s) => s.write);
    const errorsDown = fivexx(during);
    const ackedDown = writesDown.filter((s) => s.status < 300).length;
    console.info(
      `[figure] NATS cluster, all 3 nodes killed -9 for ${OUTAGE_MS} ms mid-traffic: ${traffic.samples.length} requests, acknowledged ${acknowledged(traffic.writes)}; ` +
        `during the outage ${writesDown.length} writes (${ackedDown} acknowledged), ${during.length - writesDown.length} reads, 5xx ${errorsDown.length} ` +
        `(writes ${fivexx(writesDown).length}; ${errorsDown.map((s) => `${s.what} ${s.status}`).join(', ') || 'none'}); 5xx in the whole phase ${fivexx(traffic.samples).length}; ` +
        `cluster healthy ${readyMs} ms after the restart; live stream ${liveEnded ? 'cut' : 'kept open'}, reconnected ${liveBack === null ? 'no' : `yes (${liveBack} ms after the return)`}, ` +
        `delivered ${liveTally.ok + liveTally.duplicated}/${toListener.length} messages to its person (lost ${liveTally.lost}); drained ${drainMs} ms after the return (last waiting: ${drain.last.join('; ') || 'nothing'}); ` +
        `${check.applications} consumer applications checked; lost ${check.lost.length}, doubled ${check.doubled}`,
    );
    expect(check.lost).toEqual([]);
    expect(check.doubled).toBe(0);
    expect(fivexx(writesDown).map((s) => `${s.what} ${s.status}`)).toEqual([]);
    expect(errorsDown.map((s) => `${s.what} ${s.status}`)).toEqual([]);
    expect(ackedDown, 'writes acknowledged during the outage').toBeGreaterThan(0);
    expect(liveBack, 'live stream delivers after the return').not.toBeNull();
    expect(liveEnded).toBe(false);
    expect(liveTally.lost).toBe(0);
  });
});
