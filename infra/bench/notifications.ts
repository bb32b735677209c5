import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { Pool } from 'undici';
import { NOTIFICATION_KINDS, streamNameFor, type LiveMessageEvent, type Notification, type NotificationKind, type StreamName } from '@hoptrack/proto';
import { connectBus, createLogger } from '@hoptrack/runtime';
import { openLive, type LiveClient } from '@hoptrack/testing/live';
import type { BenchContext, Benchmark } from './lib/context';
import { openLoopCalls, summarise, type StepResult } from './lib/load';
import { ProcessMeter } from './lib/procstat';
import { capacitySummary, compare, compareCapacities, round, stepSummary } from './lib/report';
import { describeCapacity, httpStep, measureCapacity, measuredStep, warmUp, type CapacityFigure } from './lib/targets';
import { userId } from './seed';

/**
 * 8. Notifications (issue 22), through the whole stack:
 *
 * - **Like → bell.** Seeded people like other seeded people's sessions
 *   (`POST /api/sessions/:id/like` through the gateway) at a steady rate;
 *   each like is timed from when it was due until the owner's live stream
 *   (`GET /api/messages/events`) delivers the `notifications` event whose
 *   unread count includes it — what the bell shows. The path: sessions'
 *   outbox → JetStream → the notifications consumer's inbox transaction →
 *   its outbox → JetStream → messaging's live feed → SSE through the
 *   gateway. Reference, same stack, same rate, same method: a direct
 *   message's live push (`POST /api/messages`, until the recipient's stream
 *   delivers the `message` event), one hop of the bus fewer.
 *   Every like is a real change (a session its liker had not liked) and each
 *   owner has a liker of their own, so no advisory lock or inbox group is
 *   shared between two likes in flight.
 * - **Inbox read.** `GET /api/notifications?limit=20` through the gateway by
 *   one person whose inbox holds INBOX_ENTRIES grouped entries of several
 *   actors each (written into the notifications database as its consumer
 *   writes them), as the capacity at p99 ≤ 50 ms, beside the same person's
 *   home feed page (`GET /api/sessions?limit=20`, what feed-read measures)
 *   through the same gateway, on the same ladder from the same floor; and
 *   both pages' p50 at that floor's rate, a comparison that still says
 *   something when the inbox's capacity is under the ladder's first rung.
 *   The live runs wait for the bus to be quiet first (busQuiet).
 */

/** Likes (and messages) per second: a busy evening for one service, far under any capacity here (fan-out's steady rate is 40 creates/s). */
const RATE = 20;
const SMOKE_RATE = 10;
/** Seconds of the measured step: 300 samples in a full run, so the p99 is the third-slowest, not the slowest. */
const SECONDS = 15;
/** (owner, liker) pairs and (sender, recipient) pairs: at 20/s each owner gets a like every 2 s. */
const PAIRS = 40;
const SMOKE_PAIRS = 10;
/** A like or message whose live event has not come after this fails (a lost event, not a slow one). */
const LIVE_DEADLINE_MS = 30_000;
/** Entries in the reader's inbox (INBOX_MAX, the most a person keeps, is 500), the newest of them unread. */
const INBOX_ENTRIES = 150;
const SMOKE_INBOX_ENTRIES = 30;
const INBOX_UNREAD = 30;
/** People per entry: 3 to 8 (the page names three and counts the rest). */
const ACTORS_MIN = 3;
const ACTORS_SPREAD = 6;
const TARGET_P99_MS = 50;
/** The feed-read searches' floor: the inbox and its reference start where the feed does. */
const FLOOR_RPS = 25;

/** A seeded person: their number (for a token) and id. */
interface Person {
  n: number;
  id: string;
}

const person = (n: number): Person => ({ n, id: userId(n) });
/** The seed's usernames are `bench_user_<n>`. */
const numberOf = (username: string) => Number(username.slice('bench_user_'.length));

/** The parts of the seeded graph that decide whether a like or a message reaches someone. */
interface Graph {
  blocked(a: string, b: string): boolean;
  /** `a` muted `b`: b's likes never reach a's inbox. */
  muted(a: string, b: string): boolean;
}

async function loadGraph(db: pg.Client): Promise<Graph> {
  const blocks = new Set((await db.query<{ k: string }>(`SELECT blocker_id || ':' || blocked_id AS k FROM blocks`)).rows.map((r) => r.k));
  const mutes = new Set((await db.query<{ k: string }>(`SELECT user_id || ':' || muted_id AS k FROM mutes`)).rows.map((r) => r.k));
  return {
    blocked: (a, b) => blocks.has(`${a}:${b}`) || blocks.has(`${b}:${a}`),
    muted: (a, b) => mutes.has(`${a}:${b}`),
  };
}

/**
 * The people with the most sessions, public, not the celebrity nor a reader
 * another benchmark signs in as (web's first screen must not show their bells).
 */
async function prolificPeople(db: pg.Client, ctx: BenchContext, count: number): Promise<Array<Person & { sessions: number }>> {
  const excluded = [1, ctx.seed.reader, ctx.seed.heavyReader].map(userId);
  const rows = await db.query<{ username: string; sessions: number }>(
    `SELECT u.username, count(*)::int AS sessions FROM beer_sessions s JOIN users u ON u.id = s.user_id
      WHERE NOT u.is_profile_private AND u.id <> ALL($1::uuid[])
      GROUP BY u.username ORDER BY sessions DESC, u.username LIMIT $2`,
    [excluded, count],
  );
  return rows.rows.map((r) => ({ ...person(numberOf(r.username)), sessions: r.sessions }));
}

/** People for the other end of each pair: from the highest numbers down, each used once, none of `used`. */
function otherEnds(ctx: BenchContext, used: Set<number>, count: number, fits: (p: Person, k: number) => boolean): Person[] {
  const found: Person[] = [];
  for (let n = ctx.seed.scale.users; n > 1 && found.length < count; n--) {
    if (used.has(n) || n === ctx.seed.reader || n === ctx.seed.heavyReader) continue;
    const p = person(n);
    if (!fits(p, found.length)) continue;
    used.add(n);
    found.push(p);
  }
  if (found.length < count) throw new Error(`only ${found.length} of ${count} people fit the pairs`);
  return found;
}

interface LikePair {
  owner: Person;
  liker: Person;
  /** The owner's sessions the liker had not liked, one per like. */
  sessions: string[];
}

/** For each pair, `perPair` of the owner's sessions its liker has not liked: every like is a new one, so a new inbox entry. */
async function unlikedSessions(db: pg.Client, pairs: Array<Omit<LikePair, 'sessions'>>, perPair: number): Promise<LikePair[]> {
  const rows = await db.query<{ k: string; id: string }>(
    `SELECT p.k::text AS k, s.id::text AS id FROM unnest($1::uuid[], $2::uuid[]) WITH ORDINALITY AS p(owner, liker, k)
       CROSS JOIN LATERAL (SELECT b.id FROM beer_sessions b WHERE b.user_id = p.owner
                              AND NOT EXISTS (SELECT 1 FROM likes l WHERE l.session_id = b.id AND l.user_id = p.liker)
                            ORDER BY b.created_at DESC LIMIT $3) s`,
    [pairs.map((p) => p.owner.id), pairs.map((p) => p.liker.id), perPair],
  );
  return pairs.map((p, i) => {
    const sessions = rows.rows.filter((r) => Number(r.k) === i + 1).map((r) => r.id);
    if (sessions.length < perPair) throw new Error(`person ${p.owner.n} has ${sessions.length} sessions person ${p.liker.n} has not liked, not ${perPair}`);
    return { ...p, sessions };
  });
}

/**
 * Opens a person's live stream through the gateway (the tests' client) and
 * resolves once it says `ready`: from then on every event reaches `onEvent`.
 */
async function openStream(baseUrl: string, token: string, onEvent: (event: string, data: unknown) => void): Promise<LiveClient> {
  const live = await withDeadline(
    openLive(baseUrl, token, (e) => onEvent(e.event, e.data)),
    'live stream ready',
  );
  if (live.status !== 200) throw new Error(`live stream answered ${live.status}`);
  return live;
}

/** Rejects when `promise` has not settled within LIVE_DEADLINE_MS: a wait on an event is never open-ended. */
function withDeadline<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${LIVE_DEADLINE_MS / 1000} s`)), LIVE_DEADLINE_MS);
    timer.unref();
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/**
 * An owner's bell as their stream tells it: the n-th like sent to them is
 * visible once a `notifications` event carries a count of at least the
 * count before the first like plus n (each like opens an entry of its own,
 * a session nobody had liked for them in this run). Matching on "at least"
 * also covers two likes whose events arrive together or out of order.
 */
class Bell {
  private seen = 0;
  private expected = 0;
  private readonly waiting: Array<{ count: number; resolve: () => void }> = [];

  /** The count before the first like (the inbox may hold entries already). */
  start(count: number): void {
    this.seen = Math.max(this.seen, count);
    this.expected = Math.max(this.expected, count);
  }

  /** Registered before the like is sent, so an event faster than the like's answer is not missed. */
  next(): Promise<void> {
    const count = ++this.expected;
    if (this.seen >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ count, resolve }));
  }

  heard(count: number): void {
    this.seen = Math.max(this.seen, count);
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      const w = this.waiting[i];
      if (w && w.count <= this.seen) {
        this.waiting.splice(i, 1);
        w.resolve();
      }
    }
  }
}

/** One timed send: when it left, when its request answered, when its live event arrived. */
interface Delivery {
  sentAt: number;
  answeredAt?: number;
  seenAt?: number;
}

/** The live figures of one run of sends beside what the open loop measured (from when each was due). */
function deliverySummary(step: StepResult, deliveries: Delivery[]) {
  const seen = deliveries.filter((d): d is Required<Delivery> => d.seenAt !== undefined && d.answeredAt !== undefined);
  const fromAnswer = summarise(seen.map((d) => Math.max(0, d.seenAt - d.answeredAt)));
  const answer = summarise(seen.map((d) => d.answeredAt - d.sentAt));
  return {
    ...stepSummary(step),
    delivered: seen.length,
    // Before its own answer: the event beat the HTTP answer back.
    beforeAnswer: seen.filter((d) => d.seenAt < d.answeredAt).length,
    fromAnswer: { p50: round(fromAnswer.p50), p99: round(fromAnswer.p99), max: round(fromAnswer.max) },
    requestAnswer: { p50: round(answer.p50), p99: round(answer.p99), max: round(answer.max) },
  };
}

/**
 * Sends `count` calls at `rate` per second (the open loop of lib/load.ts:
 * latency from when each was due, and 10 s after the last was due for the
 * stragglers) and fails on a request that did not answer 2xx — a like or
 * message refused is the harness's error, not a figure — and on an event
 * that never reached its stream: a bell that does not ring is a bug, not a slow figure.
 */
async function steady(rate: number, count: number, send: (i: number, d: Delivery) => Promise<{ status: number; body: string }>, deliveries: Delivery[]): Promise<StepResult> {
  let refused: string | undefined;
  const step = await openLoopCalls(rate, count / rate, async (i) => {
    const d: Delivery = { sentAt: performance.now() };
    deliveries.push(d);
    const { status, body } = await send(i, d);
    if ((status < 200 || status >= 300) && refused === undefined) refused = `answered ${status}: ${body.slice(0, 300)}`;
    return status;
  });
  if (refused) throw new Error(`a request of the live run ${refused}`);
  if (step.errors > 0) throw new Error(`${step.errors} of ${count} sends never reached their live stream (${JSON.stringify(step.statuses)})`);
  return step;
}

interface RunPlan {
  rate: number;
  count: number;
  /** Sends of earlier runs to skip (each like is of a session not liked before). */
  offset: number;
}

/** One timed run of `plan.count` sends: `send` gets the send's number (offset included) and its delivery record. */
async function timedRun(ctx: BenchContext, what: string, plan: RunPlan, send: (k: number, d: Delivery) => Promise<{ status: number; body: string }>) {
  const deliveries: Delivery[] = [];
  const step = await steady(plan.rate, plan.count, (i, d) => send(plan.offset + i, d), deliveries);
  ctx.log(`  ${what} at ${plan.rate}/s: p50 ${step.p50.toFixed(0)} ms, p99 ${step.p99.toFixed(0)} ms, ${step.errors} errors`);
  return { step, deliveries };
}

/** Likes through the gateway, each timed to the owner's bell. */
function likeRun(ctx: BenchContext, pool: Pool, pairs: LikePair[], bells: Map<string, Bell>, tokens: Map<number, string>, plan: RunPlan) {
  return timedRun(ctx, 'like → bell', plan, async (k, d) => {
    const pair = pairs[k % pairs.length] as LikePair;
    const session = pair.sessions[Math.floor(k / pairs.length)] as string;
    const visible = (bells.get(pair.owner.id) as Bell).next().then(() => void (d.seenAt = performance.now()));
    const res = await pool.request({ method: 'POST', path: `/api/sessions/${session}/like`, headers: { authorization: `Bearer ${tokens.get(pair.liker.n) ?? ''}` } });
    const body = await res.body.text();
    d.answeredAt = performance.now();
    if (res.statusCode !== 200) return { status: res.statusCode, body };
    await withDeadline(visible, `person ${pair.owner.n}'s bell after a like by ${pair.liker.n}`);
    return { status: 200, body };
  });
}

/** Direct messages through the gateway, each timed to the recipient's `message` event (matched by its text). */
function messageRun(ctx: BenchContext, pool: Pool, pairs: Array<{ sender: Person; recipient: Person }>, arrivals: Map<string, () => void>, tokens: Map<number, string>, plan: RunPlan) {
  return timedRun(ctx, "message → recipient's stream", plan, async (k, d) => {
    const pair = pairs[k % pairs.length] as { sender: Person; recipient: Person };
    const content = `Bench message ${k} ${randomUUID()}`;
    const visible = new Promise<void>((resolve) => arrivals.set(content, resolve)).then(() => void (d.seenAt = performance.now()));
    const res = await pool.request({
      method: 'POST',
      path: '/api/messages',
      headers: { authorization: `Bearer ${tokens.get(pair.sender.n) ?? ''}`, 'content-type': 'application/json' },
      body: JSON.stringify({ toUserId: pair.recipient.id, content }),
    });
    const body = await res.body.text();
    d.answeredAt = performance.now();
    if (res.statusCode !== 201) {
      arrivals.delete(content);
      return { status: res.statusCode, body };
    }
    await withDeadline(visible, `person ${pair.recipient.n}'s message from ${pair.sender.n}`).finally(() => arrivals.delete(content));
    return { status: 201, body };
  });
}

/** GET through the gateway as `token`, which must answer 200; the parsed body. */
async function getJson<T>(ctx: BenchContext, token: string, path: string): Promise<T> {
  const res = await fetch(`${ctx.stack.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * Like → bell beside message → stream, on pairs of seeded people: streams
 * opened first (and ready), a warm-up round of one like and one message
 * per pair (first consumers' queries, conversations created), then the
 * measured runs one after the other at the same rate.
 */
async function liveFigures(ctx: BenchContext, sessionsDb: pg.Client, graph: Graph, used: Set<number>) {
  const rate = ctx.smoke ? SMOKE_RATE : RATE;
  const count = Math.round(rate * (ctx.smoke ? ctx.stepSeconds : SECONDS));
  const pairCount = ctx.smoke ? SMOKE_PAIRS : PAIRS;
  const owners = (await prolificPeople(sessionsDb, ctx, pairCount + used.size + 1)).filter((p) => !used.has(p.n)).slice(0, pairCount);
  for (const o of owners) used.add(o.n);
  const likers = otherEnds(ctx, used, pairCount, (p, k) => {
    const owner = owners[k] as Person;
    return !graph.blocked(owner.id, p.id) && !graph.muted(owner.id, p.id);
  });
  const pairs = await unlikedSessions(
    sessionsDb,
    owners.map((owner, k) => ({ owner, liker: likers[k] as Person })),
    1 + Math.ceil(count / pairCount),
  );
  const senders = otherEnds(ctx, used, pairCount, () => true);
  const recipients = otherEnds(ctx, used, pairCount, (p, k) => !graph.blocked((senders[k] as Person).id, p.id));
  const messagePairs = senders.map((sender, k) => ({ sender, recipient: recipients[k] as Person }));

  const everyone = [...owners, ...likers, ...senders, ...recipients];
  const tokens = new Map(await Promise.all(everyone.map(async (p) => [p.n, await ctx.token(p.n)] as const)));
  const bells = new Map(owners.map((o) => [o.id, new Bell()]));
  const arrivals = new Map<string, () => void>();
  const streams: LiveClient[] = [];
  const pool = new Pool(ctx.stack.baseUrl, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000 });
  try {
    for (const owner of owners) {
      const bell = bells.get(owner.id) as Bell;
      streams.push(
        await openStream(ctx.stack.baseUrl, tokens.get(owner.n) ?? '', (event, data) => {
          if (event === 'notifications') bell.heard((data as { unreadCount: number }).unreadCount);
        }),
      );
      bell.start((await getJson<{ count: number }>(ctx, tokens.get(owner.n) ?? '', '/api/notifications/unread-count')).count);
    }
    for (const recipient of recipients) {
      streams.push(
        await openStream(ctx.stack.baseUrl, tokens.get(recipient.n) ?? '', (event, data) => {
          if (event === 'message') arrivals.get((data as LiveMessageEvent).content)?.();
        }),
      );
    }
    const quietSeconds = await busQuiet(ctx);
    ctx.log(`  ${streams.length} live streams open, the bus quiet after ${quietSeconds.toFixed(1)} s; warming up (one like and one message per pair)`);
    await likeRun(ctx, pool, pairs, bells, tokens, { rate, count: pairCount, offset: 0 });
    await messageRun(ctx, pool, messagePairs, arrivals, tokens, { rate, count: pairCount, offset: 0 });
    const likes = await likeRun(ctx, pool, pairs, bells, tokens, { rate, count, offset: pairCount });
    const messages = await messageRun(ctx, pool, messagePairs, arrivals, tokens, { rate, count, offset: pairCount });
    return { rate, count, pairCount, likes, messages, quietSeconds };
  } finally {
    for (const s of streams) s.close();
    await pool.destroy();
  }
}

/** The streams on the like's and the message's paths. */
const LIVE_PATH_STREAMS: StreamName[] = ['SESSIONS', 'MESSAGES', 'NOTIFICATIONS'];
/** Longest wait for the durables to drain what earlier sections published (a full run's creates). */
const QUIET_DEADLINE_MS = 180_000;

/**
 * Waits until no durable consumer on the live path has events waiting or
 * unacknowledged: in a full run the sections before this one published
 * thousands of session events, and a like queued behind them in the
 * notifications consumer would time the backlog, not the path.
 */
async function busQuiet(ctx: BenchContext): Promise<number> {
  const bus = await connectBus({ url: ctx.natsUrl, name: 'bench-notifications', namespace: ctx.namespace, logger: createLogger('bench-notifications', 'warn') });
  const started = performance.now();
  try {
    for (;;) {
      let waiting = 0;
      for (const stream of LIVE_PATH_STREAMS) {
        for await (const info of bus.jsm.consumers.list(streamNameFor(ctx.namespace, stream))) {
          if (info.config.durable_name) waiting += info.num_pending + info.num_ack_pending;
        }
      }
      if (waiting === 0) return (performance.now() - started) / 1000;
      if (performance.now() - started > QUIET_DEADLINE_MS) throw new Error(`${waiting} events still waiting on the live path after ${QUIET_DEADLINE_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await bus.close();
  }
}

/** A contribution row of the seeded inbox. */
interface ActorRow {
  entry: string;
  kind: NotificationKind;
  source: string;
  actor: string;
  at: Date;
}

/**
 * Fills `reader`'s inbox as the consumer would have: `entries` grouped
 * entries about the reader's own sessions (the service's session_refs with
 * their titles), each with 3–8 people who liked, commented or reacted, none
 * blocked or muted by the reader; the newest INBOX_UNREAD unread.
 */
async function seedInbox(ctx: BenchContext, sessionsDb: pg.Client, graph: Graph, reader: Person, entries: number, used: Set<number>) {
  const sessions = (
    await sessionsDb.query<{ id: string; title: string | null }>(`SELECT id::text AS id, title FROM beer_sessions WHERE user_id = $1::uuid ORDER BY created_at DESC LIMIT $2`, [
      reader.id,
      entries,
    ])
  ).rows;
  if (sessions.length < entries) throw new Error(`the inbox reader, person ${reader.n}, has ${sessions.length} sessions, not ${entries}`);
  const candidates: Person[] = [];
  for (let n = 2; n <= ctx.seed.scale.users; n++) {
    const p = person(n);
    if (!used.has(n) && !graph.blocked(reader.id, p.id) && !graph.muted(reader.id, p.id)) candidates.push(p);
  }
  const group = NOTIFICATION_KINDS['session.liked'].group;
  const kinds: NotificationKind[] = ['session.liked', 'session.commented', 'session.reacted'];
  const now = Date.now();
  const ids = sessions.map(() => randomUUID());
  const updated = sessions.map((_, e) => new Date(now - (e + 1) * 30 * 60_000));
  const actors: ActorRow[] = [];
  ids.forEach((entry, e) => {
    const chosen = new Set<string>();
    for (let j = 0; chosen.size < ACTORS_MIN + (e % ACTORS_SPREAD); j++) {
      const actor = (candidates[(e * 7919 + j * 104_729) % candidates.length] as Person).id;
      if (chosen.has(actor)) continue;
      chosen.add(actor);
      const kind = kinds[j % kinds.length] as NotificationKind;
      const source = kind === 'session.liked' ? actor : kind === 'session.reacted' ? `🍺:${actor}` : randomUUID();
      actors.push({ entry, kind, source, actor, at: new Date((updated[e] as Date).getTime() - j * 60_000) });
    }
  });
  const db = new pg.Client({ connectionString: ctx.databases.notifications });
  await db.connect();
  try {
    await db.query('BEGIN');
    await db.query(
      `INSERT INTO session_refs (session_id, owner_id, title, updated_at) SELECT s, $2::uuid, t, now() FROM unnest($1::uuid[], $3::text[]) AS x(s, t)
       ON CONFLICT (session_id) DO NOTHING`,
      [sessions.map((s) => s.id), reader.id, sessions.map((s) => s.title)],
    );
    await db.query(
      `INSERT INTO notifications (id, user_id, group_key, target_id, read, created_at, updated_at)
       SELECT id, $2::uuid, $3, target, ord > $6, at, at FROM unnest($1::uuid[], $4::uuid[], $5::timestamptz[]) WITH ORDINALITY AS x(id, target, at, ord)`,
      [ids, reader.id, group, sessions.map((s) => s.id), updated, INBOX_UNREAD],
    );
    await db.query(
      `INSERT INTO notification_actors (notification_id, kind, source_id, actor_id, at)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::uuid[], $5::timestamptz[])`,
      [actors.map((a) => a.entry), actors.map((a) => a.kind), actors.map((a) => a.source), actors.map((a) => a.actor), actors.map((a) => a.at)],
    );
    await db.query('COMMIT');
    // Statistics for the new rows, as autovacuum would have them on a service's long-lived tables.
    await db.query('ANALYZE notifications; ANALYZE notification_actors; ANALYZE session_refs');
  } finally {
    await db.end();
  }
  return { entries, actors: actors.length };
}

/** The inbox page as the web app gets it, checked: a full page of grouped entries naming their people. */
async function checkInbox(ctx: BenchContext, token: string, unread: number): Promise<{ items: number; actorsPerItem: number }> {
  const page = await getJson<Notification[]>(ctx, token, '/api/notifications?limit=20');
  if (page.length !== 20) throw new Error(`the seeded inbox's first page has ${page.length} entries, not 20`);
  if (page.some((n) => n.actorCount < ACTORS_MIN || n.actors.length === 0)) throw new Error('a seeded inbox entry shows fewer people than were written: visibility hides them');
  const count = (await getJson<{ count: number }>(ctx, token, '/api/notifications/unread-count')).count;
  if (count !== unread) throw new Error(`the seeded inbox counts ${count} unread, not ${unread}`);
  return { items: page.length, actorsPerItem: page.reduce((sum, n) => sum + n.actorCount, 0) / page.length };
}

/** The inbox page and the same person's feed page through the gateway, each a capacity on the ladder from the same floor. */
async function readFigures(ctx: BenchContext, reader: Person) {
  const token = await ctx.token(reader.n);
  const headers = { authorization: `Bearer ${token}` };
  const meter = ProcessMeter.of([
    { name: 'gateway', pid: ctx.stack.gateway.child.pid ?? 0 },
    { name: 'notifications', pid: ctx.stack.services.notifications.child.pid ?? 0 },
    { name: 'sessions', pid: ctx.stack.services.sessions.child.pid ?? 0 },
  ]);
  const targets = [
    ['inbox', '/api/notifications?limit=20'],
    ['feed', '/api/sessions?limit=20'],
  ] as const;
  const found = new Map<string, CapacityFigure>();
  const atFloor = new Map<string, StepResult>();
  for (const [name, path] of targets) {
    const request = () => ({ path, headers });
    // The warm-up also builds the reader's timeline (the first feed read rebuilds it from Postgres).
    await warmUp(ctx, ctx.stack.baseUrl, { request });
    // The page's latency at the ladder's first rung: still a comparison when a capacity is under that rung.
    atFloor.set(name, (await measuredStep(meter, ctx.stack.baseUrl, { rate: FLOOR_RPS, seconds: ctx.stepSeconds, request })).step);
    const figure = await measureCapacity(ctx, meter, httpStep(ctx.stack.baseUrl, { request }), { floorRps: FLOOR_RPS, targetP99Ms: TARGET_P99_MS });
    found.set(name, figure);
    ctx.log(`  ${name} of person ${reader.n}: ${describeCapacity(figure)} at p99 ≤ ${TARGET_P99_MS} ms`);
  }
  return {
    inbox: found.get('inbox') as CapacityFigure,
    feed: found.get('feed') as CapacityFigure,
    inboxAtFloor: atFloor.get('inbox') as StepResult,
    feedAtFloor: atFloor.get('feed') as StepResult,
  };
}

export const benchNotifications: Benchmark = async (ctx) => {
  const sessionsDb = new pg.Client({ connectionString: ctx.databases.sessions });
  await sessionsDb.connect();
  try {
    const graph = await loadGraph(sessionsDb);
    const entries = ctx.smoke ? SMOKE_INBOX_ENTRIES : INBOX_ENTRIES;
    // The inbox reader: the most prolific public person (a session per entry), nobody else's pair.
    const [top] = await prolificPeople(sessionsDb, ctx, 1);
    if (!top) throw new Error('no public person has sessions');
    const reader = person(top.n);
    const used = new Set([reader.n]);
    const live = await liveFigures(ctx, sessionsDb, graph, used);

    const seeded = await seedInbox(ctx, sessionsDb, graph, reader, entries, used);
    const page = await checkInbox(ctx, await ctx.token(reader.n), Math.min(INBOX_UNREAD, entries));
    ctx.log(`  inbox of person ${reader.n}: ${seeded.entries} entries, ${seeded.actors} contributions; a page names ${page.actorsPerItem.toFixed(1)} people per entry`);
    const reads = await readFigures(ctx, reader);

    const { likes, messages } = live;
    const ratioNote = `p50 ${likes.step.p50.toFixed(0)} ms vs ${messages.step.p50.toFixed(0)} ms.`;
    return {
      id: 'notifications',
      title: 'Notifications',
      comparisons: [
        compare({
          measure: `Like → the owner's bell: POST /api/sessions/:id/like through the gateway until the owner's live stream delivers the \`notifications\` event with the new unread count, p99 at a steady ${live.rate}/s (${live.count} likes, ${live.pairCount} owners)`,
          value: round(likes.step.p99),
          unit: 'ms',
          reference: `a direct message's live push: POST /api/messages until the recipient's stream delivers the \`message\` event, same rate and method`,
          referenceValue: round(messages.step.p99),
          note: `From when each was due. ${ratioNote}`,
        }),
        compare({
          measure: `Like → the owner's bell, p50 at ${live.rate}/s`,
          value: round(likes.step.p50),
          unit: 'ms',
          reference: "a direct message's live push, p50",
          referenceValue: round(messages.step.p50),
        }),
        compareCapacities({
          measure: `GET /api/notifications?limit=20 through the gateway, a reader with ${seeded.entries} grouped entries (${round(seeded.actors / seeded.entries, 1)} people each), rps at p99 ≤ ${TARGET_P99_MS} ms`,
          value: reads.inbox,
          reference: 'the same person\'s home feed page (GET /api/sessions?limit=20, 20 hydrated cards) through the gateway',
          referenceValue: reads.feed,
        }),
        compare({
          measure: `GET /api/notifications?limit=20 through the gateway (the same reader), p50 at ${FLOOR_RPS} rps`,
          value: round(reads.inboxAtFloor.p50),
          unit: 'ms',
          reference: "the same person's home feed page through the gateway, p50 at the same rate",
          referenceValue: round(reads.feedAtFloor.p50),
          note: `p99 ${reads.inboxAtFloor.p99.toFixed(1)} ms vs ${reads.feedAtFloor.p99.toFixed(1)} ms.`,
        }),
      ],
      costs: [
        ...reads.inbox.median.costs.map((c) => ({ at: `inbox read at ${reads.inbox.rps} rps`, ...c })),
        ...reads.feed.median.costs.map((c) => ({ at: `feed read (inbox reference) at ${reads.feed.rps} rps`, ...c })),
      ],
      details: {
        live: {
          rate: live.rate,
          pairs: live.pairCount,
          waitedForQuietBusSeconds: round(live.quietSeconds, 1),
          likes: deliverySummary(likes.step, likes.deliveries),
          messages: deliverySummary(messages.step, messages.deliveries),
        },
        inboxReader: { person: reader.n, entries: seeded.entries, contributions: seeded.actors, unread: Math.min(INBOX_UNREAD, entries), pageActorsPerEntry: round(page.actorsPerItem, 1) },
        inbox: { atFloor: stepSummary(reads.inboxAtFloor), capacity: capacitySummary(reads.inbox) },
        feed: { atFloor: stepSummary(reads.feedAtFloor), capacity: capacitySummary(reads.feed) },
      },
    };
  } finally {
    await sessionsDb.end();
  }
};
