import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import { streamNameFor } from '@hoptrack/proto';
import { connectBus, createLogger } from '@hoptrack/runtime';
import { bullConnection, bullmq, queuePrefix } from '@hoptrack/runtime/queues';
import { Redis } from 'ioredis';
import pg from 'pg';
import { Pool } from 'undici';
import type { FanoutJob } from '../../services/sessions/src/feed/fanout';
import { fanoutJobOptions } from '../../services/sessions/src/feed/queue';
import { memberOf } from '../../services/sessions/src/feed/timelines';
import type { BenchContext, Benchmark } from './lib/context';
import { openLoopCalls, summarise, type StepResult } from './lib/load';
import { ENGINES, LOAD_GENERATOR, ProcessMeter, type ProcessCost } from './lib/procstat';
import { capacitySummary, compare, figureFields, medianOf, round } from './lib/report';
import { SESSION_FORM_CONTENT_TYPE, sessionFormBody } from './lib/session-form';
import { againstGoal, stackCpu } from './lib/stack-meter';
import { measureCapacity } from './lib/targets';
import { seededSessionIdSql, userId } from './seed';

/**
 * 4. Fan-out, as capacities that cannot flatter it, each on a quiet stack:
 *
 * - **The worker's drain rate** (its capacity). The fan-out queue is
 *   paused, loaded with a backlog of fan-out jobs for seeded sessions by
 *   ordinary people (the jobs the sessions' JetStream consumer would queue
 *   for them), resumed, and timed until it is empty. The inserts are counted
 *   from Redis — the sum of every person's timeline size after, less
 *   before — not from what was queued; a session already on a timeline (a
 *   reader's timeline rebuilt by the feed benchmark of a full run) or a
 *   trim at the cap makes the count lower, never higher (timelines at the
 *   cap are reported). A probe drain sizes the runs (about DRAIN_SECONDS
 *   each); the figure is the median of `ctx.search.runs` drains, each over
 *   sessions no other drain used. Each drain says which process was busy:
 *   what limited it.
 * - **Through the gateway.** Creates by ordinary people climb the ladder
 *   until the lag from a create's request to its session on the friend the
 *   fan-out reaches last stops being bounded (p99 over LAG_BOUND_MS within a
 *   5-second step); each rung's inserts are counted from Redis too. Each
 *   broken rung says what broke first: a fan-out behind its input holds a
 *   backlog (events its consumer has not read, jobs waiting); creates that miss their own target while the
 *   queue stays short put the limit in the create path, and the figure is
 *   then a floor of the fan-out ("≥").
 * - **The 5,000-friend author**: the time until one session reaches every friend.
 *
 * References, against the same Redis in the same run: redis-benchmark's
 * pipelined ZADD over random keys (`-r`, a key per person, as timelines are;
 * its built-in `-t zadd` test writes one key whatever `-r` says), and what
 * one of our inserts is — ZADD, trim and EXPIRE on each of an audience's
 * timelines, pipelined — done with plain ioredis pipelines from the bench process.
 */
const FORM = sessionFormBody({ title: 'Fan-out night', beerCount: '2', duration: '90' });
const run = promisify(execFile);

/** The queue the stack's worker consumes (FANOUT_QUEUE's default; the stack does not override it). */
const FANOUT_QUEUE = 'feed-fanout';
/** Its consumer of the sessions' events (FANOUT_CONSUMER's default, `-sessions`). */
const FANOUT_SESSIONS_CONSUMER = 'sessions-fanout-sessions';
/** Issue 41's goal for one timeline insert at drain, whole stack. */
const FANOUT_GOAL_CPU_MS = 0.02;
/** TIMELINE_CAP's default: a timeline at it may have been trimmed, so a count over it is a floor. */
const TIMELINE_CAP = 120;
/** A rung holds while the create → last friend lag stays under this at p99 (5-second steps: 1.4× over capacity piles ~2 s). */
const LAG_BOUND_MS = 1000;
/** The create's own target (session-create.ts): a rung whose creates miss it broke in the create path. */
const CREATE_P99_MS = 100;
/** Seconds of work each drain is sized for, from the probe's rate. */
const DRAIN_SECONDS = 8;
/** Pipelines the insert reference keeps in flight (as many as the worker runs jobs at once, FANOUT_CONCURRENCY's default). */
const REFERENCE_IN_FLIGHT = 16;
/** redis-benchmark's pipeline depth (its random keys: one per person, as timelines are). */
const REDIS_BENCHMARK_PIPELINE = 64;

interface Created {
  sessionId: string;
  authorId: string;
  /** The follower the fan-out reaches last (it goes in follower-id order). */
  lastFollower: string;
  sentAt: number;
  answeredAt: number;
  seenAt?: number;
}

/** One rung of the gateway ladder, beyond its StepResult: where the lag went and what was busy. */
interface Rung {
  offeredRps: number;
  creates: number;
  createP99: number;
  lagP50: number;
  lagP99: number;
  /** From the create's answer to the last friend's timeline, p99. */
  afterAnswerP99: number;
  /** Most fan-out jobs waiting at once during the step (not counting those running). */
  queueMax: number;
  /** Inserts found in Redis for the step's sessions (every friend's timeline and the author's), and per second of the step. */
  inserts: number;
  insertsPerSecond: number;
  missing: number;
  /** Share of one core each busy process used in the step. */
  cores: Record<string, number>;
  holds: boolean;
  /** What broke first, for a rung that did not hold. */
  limit?: string;
}

interface Drain {
  sessions: number;
  inserts: number;
  seconds: number;
  insertsPerSecond: number;
  jobsPerSecond: number;
  /** Timelines at the cap after the drain: a trim there may have hidden an insert (the count is then a floor). */
  timelinesAtCap: number;
  /** Share of one core each busy process used during the drain. */
  cores: Record<string, number>;
  costs: ProcessCost[];
}

export const benchFanout: Benchmark = async (ctx) => {
  const redis = new Redis(ctx.redisUrl);
  const db = new pg.Client({ connectionString: ctx.databases.sessions });
  await db.connect();
  const http = new Pool(ctx.stack.baseUrl, { connections: 32 });
  const queue = new bullmq.Queue<FanoutJob>(FANOUT_QUEUE, { connection: bullConnection(ctx.redisUrl), prefix: queuePrefix(ctx.namespace) });
  // The consumer runs a create's first batch itself (issue 41, item 3): its unread events are the fan-out's backlog too.
  const bus = await connectBus({ url: ctx.natsUrl, name: 'bench-fanout', namespace: ctx.namespace, logger: createLogger('bench', 'silent') });
  const consumerBacklog = async (withRunning: boolean) => {
    const info = await bus.jsm.consumers.info(streamNameFor(ctx.namespace, 'SESSIONS'), FANOUT_SESSIONS_CONSUMER);
    return info.num_pending + (withRunning ? info.num_ack_pending : 0);
  };
  const timeline = (user: string) => `${ctx.namespace}:timeline:${user}`;
  const everyone = Array.from({ length: ctx.seed.scale.users }, (_, i) => userId(i + 1));
  // Fan-out writes only the timelines of people active in the last 30 days (issue 41): here everyone
  // is, so each person's timeline exists first. A mark at -inf, outside every read and the first to go
  // in a trim (the product's own marks are alike); a feed read still rebuilds it, as it is not complete.
  for (let i = 0; i < everyone.length; i += 2000) {
    const pipeline = redis.pipeline();
    for (const id of everyone.slice(i, i + 2000)) pipeline.zadd(timeline(id), '-inf', '~bench-active').expire(timeline(id), 30 * 24 * 3600);
    await pipeline.exec();
  }

  const create = async (person: number): Promise<{ sessionId: string; sentAt: number; answeredAt: number }> => {
    const sentAt = performance.now();
    const res = await http.request({
      path: '/api/sessions',
      method: 'POST',
      headers: { authorization: `Bearer ${await ctx.token(person)}`, 'content-type': SESSION_FORM_CONTENT_TYPE },
      body: FORM,
    });
    const body = (await res.body.json()) as { id?: string };
    if (res.statusCode !== 201 || !body.id) throw new Error(`create answered ${res.statusCode}`);
    return { sessionId: body.id, sentAt, answeredAt: performance.now() };
  };
  /** Jobs waiting or running in the fan-out queue, and events its consumer has not settled. */
  const queued = async () => {
    const counts = await queue.getJobCounts('waiting', 'paused', 'active', 'delayed', 'prioritized', 'waiting-children');
    return Object.values(counts).reduce((a, b) => a + b, 0) + (await consumerBacklog(true));
  };
  /** Jobs and events waiting for the fan-out (not those it is running). */
  const backlog = async () => {
    const counts = await queue.getJobCounts('waiting', 'prioritized');
    return Object.values(counts).reduce((a, b) => a + b, 0) + (await consumerBacklog(false));
  };
  const untilIdle = async (deadlineMs: number, pollMs = 5) => {
    const deadline = performance.now() + deadlineMs;
    while ((await queued()) > 0) {
      if (performance.now() > deadline) throw new Error(`the fan-out queue still held jobs after ${deadlineMs / 1000} s`);
      await sleep(pollMs);
    }
  };
  /** Sum of the sizes of every person's timeline, and how many are at the cap. */
  const timelineSizes = async (): Promise<{ total: number; atCap: number }> => {
    let total = 0;
    let atCap = 0;
    for (let i = 0; i < everyone.length; i += 2000) {
      const pipeline = redis.pipeline();
      for (const id of everyone.slice(i, i + 2000)) pipeline.zcard(timeline(id));
      for (const [, n] of (await pipeline.exec()) ?? []) {
        total += Number(n);
        if (Number(n) >= TIMELINE_CAP) atCap++;
      }
    }
    return { total, atCap };
  };
  /**
   * Polls every 5 ms, from the first create on, until each session is on its
   * last follower's timeline: `created` grows while the load runs, and the
   * watch ends once `loadDone` is set and nothing is pending (or at the
   * deadline). Samples the queue's depth every 50 ms meanwhile.
   */
  const watch = async (created: Created[], isLoadDone: () => boolean, deadlineMs: number, onDepth?: (n: number) => void) => {
    const deadline = performance.now() + deadlineMs;
    let sampled = 0;
    for (;;) {
      const pending = created.filter((c) => c.seenAt === undefined);
      if ((pending.length === 0 && isLoadDone()) || performance.now() > deadline) return;
      if (pending.length > 0) {
        const pipeline = redis.pipeline();
        for (const c of pending) pipeline.zscore(timeline(c.lastFollower), memberOf(c));
        const answers = (await pipeline.exec()) ?? [];
        const now = performance.now();
        pending.forEach((c, i) => {
          if (answers[i]?.[1] !== null && answers[i]?.[1] !== undefined) c.seenAt = now;
        });
      }
      if (onDepth && performance.now() - sampled >= 50) {
        sampled = performance.now();
        onDepth(await backlog());
      }
      await sleep(5);
    }
  };

  try {
    // Authors for the gateway ladder: ordinary public people who have friends, with their audience (a follower
    // who muted the author is not in it: the fan-out skips them) in id order, so the last is the one reached last.
    const people = Array.from({ length: ctx.smoke ? 20 : 400 }, (_, i) => Math.floor(ctx.seed.scale.users * 0.6) + i).filter((i) => i % 10 !== 0);
    const rows = (
      await db.query<{ followee_id: string; follower_id: string }>(
        `SELECT f.followee_id, f.follower_id FROM follows f WHERE f.followee_id = ANY($1::uuid[])
           AND NOT EXISTS (SELECT 1 FROM mutes m WHERE m.user_id = f.follower_id AND m.muted_id = f.followee_id)
         ORDER BY f.followee_id, f.follower_id`,
        [people.map(userId)],
      )
    ).rows;
    const audiences = new Map<string, string[]>();
    for (const r of rows) audiences.set(r.followee_id, [...(audiences.get(r.followee_id) ?? []), r.follower_id]);
    const authors = people.filter((i) => audiences.has(userId(i)));
    if (authors.length === 0) throw new Error('no author with friends');

    const stackMeter = ProcessMeter.of([
      { name: 'gateway', pid: ctx.stack.gateway.child.pid ?? 0 },
      ...Object.values(ctx.stack.services).map((p) => ({ name: p.name, pid: p.child.pid ?? 0 })),
    ]);
    // Each figure starts on a quiet stack: nothing left over from the seed (or from the previous rung) in any process.
    await quiet(ctx, stackMeter);

    // --- 1. The worker's capacity: a paused queue loaded with a backlog, resumed, timed until empty.
    const celebrityId = userId(ctx.seed.celebrity);
    // Seeded sessions by number (their authors are random), each drain past the last one used, the celebrity's left out.
    let used = 0;
    const drain = async (n: number, label: string): Promise<Drain> => {
      const sessions = (
        await db.query<{ g: number; id: string; user_id: string; created_at: Date }>(
          `SELECT g, s.id, s.user_id, s.created_at FROM generate_series($1::int + 1, $2::int) g
           JOIN beer_sessions s ON s.id = ${seededSessionIdSql('g')} WHERE s.user_id <> $3::uuid ORDER BY g LIMIT $4`,
          [used, Math.min(ctx.seed.scale.sessions, used + Math.ceil(n * 1.2) + 10), celebrityId, n],
        )
      ).rows;
      if (sessions.length < n) throw new Error(`only ${sessions.length} seeded sessions left for a drain of ${n}`);
      used = (sessions.at(-1) as { g: number }).g;
      await untilIdle(60_000);
      await queue.pause();
      try {
        const jobs = sessions.map((s) => ({
          name: 'fanout',
          // The session's own creation time: the timelines end as the product's own fan-out would leave them.
          data: { kind: 'fanout', sessionId: s.id, authorId: s.user_id, score: s.created_at.getTime(), after: null } satisfies FanoutJob,
          // The product's own options: a job kept after it completed would be read by every erasure after this section.
          opts: fanoutJobOptions(`bench-drain-${label}-${s.id}`, 8),
        }));
        for (let i = 0; i < jobs.length; i += 1000) await queue.addBulk(jobs.slice(i, i + 1000));
      } catch (err) {
        await queue.resume();
        throw err;
      }
      const failedBefore = (await queue.getJobCounts('failed')).failed ?? 0;
      const before = await timelineSizes();
      stackMeter.begin();
      const started = performance.now();
      await queue.resume();
      await untilIdle(600_000);
      const seconds = (performance.now() - started) / 1000;
      const spent = stackMeter.end(1);
      const after = await timelineSizes();
      const failed = ((await queue.getJobCounts('failed')).failed ?? 0) - failedBefore;
      if (failed > 0) throw new Error(`${failed} fan-out jobs of the drain failed`);
      const inserts = after.total - before.total;
      const result: Drain = {
        sessions: sessions.length,
        inserts,
        seconds: round(seconds, 3),
        insertsPerSecond: Math.round(inserts / seconds),
        jobsPerSecond: Math.round(sessions.length / seconds),
        timelinesAtCap: after.atCap,
        cores: coreShares(spent, seconds),
        costs: spent.map((c) => ({ ...c, cpuMsPerRequest: c.cpuMs === null || inserts === 0 ? null : c.cpuMs / inserts })),
      };
      ctx.log(
        `  drain ${label}: ${sessions.length} sessions, ${inserts} inserts in ${seconds.toFixed(2)} s: ${result.insertsPerSecond} inserts/s (${result.jobsPerSecond} jobs/s); ` +
          `cores: ${Object.entries(result.cores).map(([p, c]) => `${p} ${c}`).join(', ')}`,
      );
      return result;
    };
    ctx.log('  worker: backlog drains');
    // The probe also warms the worker up (its JIT, its connections' named statement, the script in Redis).
    const probe = await drain(ctx.smoke ? 50 : 2_000, 'probe');
    const perSession = probe.inserts / probe.sessions;
    const drainSize = ctx.smoke ? 100 : Math.min(30_000, Math.max(5_000, Math.round((probe.insertsPerSecond * DRAIN_SECONDS) / perSession)));
    const drains: Drain[] = [];
    for (let i = 0; i < ctx.search.runs; i++) drains.push(await drain(drainSize, `run${i + 1}`));
    const sortedDrains = [...drains].sort((a, b) => a.insertsPerSecond - b.insertsPerSecond);
    const medianDrain = sortedDrains[Math.floor(sortedDrains.length / 2)] as Drain;

    // --- 2. Through the gateway: creates up the ladder until the lag is no longer bounded.
    const rungs: Rung[] = [];
    const rungOfStep = new Map<StepResult, Rung>();
    const createStep = async (rate: number, seconds: number): Promise<StepResult> => {
      const created: Created[] = [];
      let loadDone = false;
      let queueMax = 0;
      stackMeter.begin();
      const watching = watch(created, () => loadDone, (seconds + 30) * 1000, (n) => (queueMax = Math.max(queueMax, n)));
      const step = await openLoopCalls(rate, seconds, async (i) => {
        const person = authors[i % authors.length] as number;
        const authorId = userId(person);
        const answer = await create(person);
        created.push({ ...answer, authorId, lastFollower: (audiences.get(authorId) as string[]).at(-1) as string });
        return 201;
      });
      loadDone = true;
      await watching;
      const busy = stackMeter.end(1);
      // Inserts counted from Redis: each session on its author's and every friend's timeline.
      const pipeline = redis.pipeline();
      for (const c of created) for (const id of [c.authorId, ...(audiences.get(c.authorId) ?? [])]) pipeline.zscore(timeline(id), memberOf(c));
      const inserts = ((await pipeline.exec()) ?? []).filter(([, score]) => score !== null && score !== undefined).length;
      const missing = created.filter((c) => c.seenAt === undefined).length;
      const lags = created.map((c) => (c.seenAt ?? Number.POSITIVE_INFINITY) - c.sentAt);
      const lag = summarise(lags.map((ms) => (Number.isFinite(ms) ? ms : 60_000)));
      const afterAnswer = summarise(created.map((c) => (c.seenAt ?? c.answeredAt + 60_000) - c.answeredAt));
      const result: StepResult = { ...step, errors: step.errors + missing, p50: lag.p50, p90: lag.p90, p99: lag.p99, max: lag.max };
      const holds = result.errors === 0 && result.achievedRps >= rate * 0.9 && lag.p99 <= LAG_BOUND_MS;
      const cores = coreShares(busy, step.seconds);
      // A fan-out behind its input holds a backlog of jobs (a quarter second's worth or more); a create path that
      // cannot keep up shows in the creates' own p99 with the queue short.
      const fanoutBehind = queueMax >= Math.max(10, rate * 0.25);
      const createMissed = step.errors > 0 || step.achievedRps < rate * 0.9 || step.p99 > CREATE_P99_MS;
      const limit = holds
        ? undefined
        : fanoutBehind
          ? `fan-out (${queueMax} events and jobs waiting)`
          : createMissed
            ? `create path (create p99 ${round(step.p99, 0)} ms, fan-out queue ≤ ${queueMax})`
            : `between the create and the queue (relay, bus, consumer): creates in time, queue ≤ ${queueMax}`;
      const rung: Rung = {
        offeredRps: rate,
        creates: created.length,
        createP99: round(step.p99),
        lagP50: round(lag.p50),
        lagP99: round(lag.p99),
        afterAnswerP99: round(afterAnswer.p99),
        queueMax,
        inserts,
        insertsPerSecond: Math.round(inserts / seconds),
        missing,
        cores,
        holds,
        ...(limit ? { limit } : {}),
      };
      rungs.push(rung);
      rungOfStep.set(result, rung);
      ctx.log(
        `  ${rate} creates/s: ${inserts} inserts (${Math.round(inserts / seconds)}/s), lag p50 ${lag.p50.toFixed(0)} p99 ${lag.p99.toFixed(0)} ms, ` +
          `create p99 ${step.p99.toFixed(0)} ms, queue ≤ ${queueMax}${limit ? ` — broke: ${limit}` : ''}`,
      );
      // A rung that fell behind leaves its backlog to drain before the next one starts.
      await untilIdle(120_000, 20);
      return result;
    };
    await quiet(ctx, stackMeter);
    ctx.log('  gateway: creates up the ladder until the lag to the last friend is unbounded');
    const ladder = await measureCapacity(ctx, ctx.meter, createStep, { floorRps: 25, targetP99Ms: LAG_BOUND_MS });
    // The median search's sustained rung, and the last rung it saw break (what limited it).
    const steps = ladder.median.capacity.steps.map((s) => rungOfStep.get(s));
    const median = {
      sustained: ladder.median.capacity.atSustained ? rungOfStep.get(ladder.median.capacity.atSustained) : undefined,
      broke: [...steps].reverse().find((r) => r !== undefined && !r.holds),
    };
    // Inserts per create at the sustained rung, counted from Redis; the figure in inserts/s is the rung's rate times it.
    const insertsPerCreate = median.sustained && median.sustained.creates > 0 ? median.sustained.inserts / median.sustained.creates : 0;
    const ladderInserts = ladder.rps * insertsPerCreate;
    const limitedByFanout = median.broke?.limit?.startsWith('fan-out') ?? false;

    // --- 3. The celebrity: every friend's timeline, checked in one pipeline per poll (the stack quiet again
    // first: the ladder's top rungs leave consumers of the sessions' events catching up).
    await quiet(ctx, stackMeter);
    const celebrityFollowers = (
      await db.query<{ follower_id: string }>(
        'SELECT f.follower_id FROM follows f WHERE f.followee_id = $1 AND NOT EXISTS (SELECT 1 FROM mutes m WHERE m.user_id = f.follower_id AND m.muted_id = f.followee_id)',
        [celebrityId],
      )
    ).rows.map((r) => r.follower_id);
    const celebrityRuns: number[] = [];
    for (let k = 0; k < (ctx.smoke ? 1 : 3); k++) {
      const { sessionId, sentAt } = await create(ctx.seed.celebrity);
      const member = memberOf({ authorId: celebrityId, sessionId });
      let waiting = celebrityFollowers;
      const deadline = performance.now() + 120_000;
      while (waiting.length > 0 && performance.now() < deadline) {
        const pipeline = redis.pipeline();
        for (const f of waiting) pipeline.zscore(timeline(f), member);
        const answers = (await pipeline.exec()) ?? [];
        waiting = waiting.filter((_, i) => answers[i]?.[1] === null || answers[i]?.[1] === undefined);
        if (waiting.length > 0) await sleep(20);
      }
      if (waiting.length > 0) throw new Error(`the celebrity's session missed ${waiting.length} friends after 2 minutes`);
      celebrityRuns.push(performance.now() - sentAt);
    }
    const celebrityMs = summarise(celebrityRuns).p50;
    const celebrityRate = celebrityFollowers.length / (celebrityMs / 1000);
    ctx.log(`  celebrity (${celebrityFollowers.length} friends): ${celebrityMs.toFixed(0)} ms`);

    // --- 4. The references, same Redis, same run, on a quiet stack.
    await quiet(ctx, stackMeter);
    const keyspace = ctx.seed.scale.users;
    const zaddRandom = await redisBenchmark(ctx, [
      '-r',
      String(keyspace),
      '-P',
      String(REDIS_BENCHMARK_PIPELINE),
      '-n',
      ctx.smoke ? '20000' : '1000000',
      'ZADD',
      `${ctx.namespace}:ref:zadd:__rand_int__`,
      '__rand_int__',
      'm:__rand_int__',
    ]);
    const zaddOneKey = await redisBenchmark(ctx, ['-t', 'zadd', '-P', String(REDIS_BENCHMARK_PIPELINE), '-n', ctx.smoke ? '20000' : '500000']);
    const audience = Math.max(1, Math.round(medianDrain.inserts / medianDrain.sessions));
    const timelinesAlone = await pipelinedReference(ctx, keyspace, audience, ctx.smoke ? 20_000 : 600_000);
    await unlinkAll(redis, `${ctx.namespace}:ref:*`);
    ctx.log(
      `  references: redis-benchmark ZADD over ${keyspace} random keys ${Math.round(zaddRandom)}/s (one key ${Math.round(zaddOneKey)}/s); ` +
        `pipelined ZADD + trim + EXPIRE ${Math.round(timelinesAlone.insertsPerSecond)} inserts/s`,
    );

    const drainRuns = drains.map((d) => d.insertsPerSecond);
    const perInsert = medianOf(drains.map((d) => (d.inserts > 0 ? stackCpu(d.costs) / d.inserts : 0)), 4);
    const drainSpread = { min: sortedDrains[0]?.insertsPerSecond ?? 0, max: sortedDrains.at(-1)?.insertsPerSecond ?? 0 };
    const drainMeasure = `Fan-out worker capacity: timeline inserts/s draining a backlog of ${medianDrain.sessions.toLocaleString('en-GB')} sessions by ordinary people (counted from Redis; each a ZADD + trim + EXPIRE)`;
    const drainNote =
      `${medianDrain.jobsPerSecond} jobs/s, ${round(medianDrain.inserts / medianDrain.sessions, 1)} inserts per session; ${drainLimit(medianDrain.cores)}` +
      (medianDrain.timelinesAtCap > 0 ? `; ${medianDrain.timelinesAtCap} timelines at the cap: the count is a floor` : '');
    const ladderLimit = median.broke?.limit ?? (ladder.median.capacity.reachedCap ? 'the ladder’s top' : 'unknown');
    return {
      id: 'fanout',
      title: 'Fan-out',
      comparisons: [
        compare({
          measure: drainMeasure,
          value: medianDrain.insertsPerSecond,
          unit: 'inserts/s',
          reference: `redis-benchmark pipelined ZADD over ${keyspace.toLocaleString('en-GB')} random keys (-r, -P ${REDIS_BENCHMARK_PIPELINE}), same Redis`,
          referenceValue: Math.round(zaddRandom),
          note: drainNote,
          runs: drainRuns,
          spread: drainSpread,
        }),
        // Issue 41's row: what one insert costs every process of the stack while the worker drains.
        againstGoal({
          measure: 'Fan-out CPU-ms per timeline insert at drain (whole stack, load generator apart; the same drains)',
          ...perInsert,
          unit: 'ms',
          referenceValue: FANOUT_GOAL_CPU_MS,
        }),
        compare({
          measure: 'Fan-out worker capacity (the same drains)',
          value: medianDrain.insertsPerSecond,
          unit: 'inserts/s',
          reference: `what an insert is, alone: ZADD + trim + EXPIRE on ${audience} random timelines per ioredis pipeline, ${REFERENCE_IN_FLIGHT} pipelines in flight, from one Node process`,
          referenceValue: Math.round(timelinesAlone.insertsPerSecond),
          runs: drainRuns,
          spread: drainSpread,
        }),
        {
          ...compare({
            measure: `Timeline inserts/s through the gateway: creates up the ladder while the lag from create to the last friend's timeline stays under ${LAG_BOUND_MS} ms at p99 (inserts counted from Redis)`,
            value: Math.round(ladderInserts),
            unit: 'inserts/s',
            reference: 'the fan-out worker capacity above (drain)',
            referenceValue: medianDrain.insertsPerSecond,
            note: `${ladder.rps} creates/s × ${round(insertsPerCreate, 1)} inserts per create; the rung above broke in the ${ladderLimit}${limitedByFanout ? '' : ', not in the fan-out: a floor of the fan-out'}`,
          }),
          runs: figureFields(ladder).runs?.map((r) => Math.round(r * insertsPerCreate)),
          spread: { min: Math.round(ladder.spread.min * insertsPerCreate), max: Math.round(ladder.spread.max * insertsPerCreate) },
          atLeast: ladder.atLeast || !limitedByFanout,
        },
        compare({
          measure: `5,000-friend author: inserts per second while reaching all ${celebrityFollowers.length} friends who did not mute them`,
          value: celebrityRate,
          unit: 'inserts/s',
          reference: `redis-benchmark pipelined ZADD over random keys (-r, -P ${REDIS_BENCHMARK_PIPELINE}), same Redis`,
          referenceValue: Math.round(zaddRandom),
          note: `${round(celebrityMs / 1000, 2)} s from the create's request to the last friend's timeline`,
        }),
        compare({
          measure: `Lag from create to the last friend's timeline at ${ladder.rps} creates/s, p99`,
          value: median.sustained?.lagP99 ?? 0,
          unit: 'ms',
          reference: 'the same lag, p50',
          referenceValue: median.sustained?.lagP50 ?? 0,
        }),
      ],
      costs: [
        ...medianDrain.costs.map((c) => ({ at: 'fan-out drain, per timeline insert', ...c })),
        ...ladder.median.costs.map((c) => ({ at: `create + fan-out at ${ladder.rps} creates/s, per create`, ...c })),
      ],
      details: {
        drain: { probe: { ...probe, costs: undefined }, runs: drains.map((d) => ({ ...d, costs: undefined })), medianInsertsPerSecond: medianDrain.insertsPerSecond },
        gateway: {
          lagBoundMs: LAG_BOUND_MS,
          createP99TargetMs: CREATE_P99_MS,
          sustainedCreatesPerSecond: ladder.rps,
          insertsPerCreate: round(insertsPerCreate, 2),
          limit: ladderLimit,
          search: capacitySummary(ladder),
          rungs,
        },
        celebrity: { friends: celebrityFollowers.length, runsMs: celebrityRuns.map((ms) => Math.round(ms)), medianMs: Math.round(celebrityMs) },
        references: {
          redisBenchmarkZaddRandomKeys: { opsPerSecond: Math.round(zaddRandom), keyspace, pipeline: REDIS_BENCHMARK_PIPELINE },
          redisBenchmarkZaddOneKey: { opsPerSecond: Math.round(zaddOneKey), pipeline: REDIS_BENCHMARK_PIPELINE },
          pipelinedInserts: { ...timelinesAlone, audience, inFlight: REFERENCE_IN_FLIGHT },
        },
      },
    };
  } finally {
    // Never leave the stack's fan-out paused, whatever failed.
    await queue.resume().catch(() => undefined);
    // Nor everyone marked active: the sections after this one read the stack as its people left it (the cost
    // section's count of timelines kept for people who did not read). A feed read rebuilds a timeline, as after a Redis loss.
    for (let i = 0; i < everyone.length; i += 2000) await redis.del(...everyone.slice(i, i + 2000).map(timeline)).catch(() => undefined);
    await queue.close();
    await bus.close();
    await http.close();
    await db.end();
    redis.disconnect();
  }
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Share of one core each process used in a window of `seconds`, for those that used a tenth of one or more. */
const coreShares = (spent: ProcessCost[], seconds: number): Record<string, number> =>
  Object.fromEntries(
    spent
      .filter((c) => (c.cpuMs ?? 0) >= seconds * 100)
      .sort((a, b) => (b.cpuMs ?? 0) - (a.cpuMs ?? 0))
      .map((c) => [c.process, round((c.cpuMs ?? 0) / (seconds * 1000))]),
  );

/** What held a drain back, from the processes' shares of a core: one at a full core, the machine's cores all busy, or neither (waits). */
function drainLimit(cores: Record<string, number>): string {
  const shares = Object.entries(cores);
  const list = shares.map(([p, c]) => `${p} ${c}`).join(', ');
  const full = shares.find(([, c]) => c >= 0.9);
  if (full) return `limited by ${full[0]} at a full core (${list})`;
  const used = shares.reduce((sum, [, c]) => sum + c, 0);
  if (used >= availableParallelism() * 0.85) return `limited by the machine's ${availableParallelism()} cores, all busy (${list})`;
  return `no process at a full core and the stack's processes using ${round(used, 1)} of ${availableParallelism()} cores (${list}): the rest of the machine was busy with other work, or the jobs waited on round trips`;
}

/**
 * Waits (up to 30 s) until the stack is quiet — its processes together
 * under a fifth of a core over a second — so a figure does not pay for work
 * left from the seed or an earlier step (consumers catching up). The
 * engines are left out: they are shared with whatever else the machine runs.
 */
async function quiet(ctx: BenchContext, meter: ProcessMeter): Promise<void> {
  const deadline = performance.now() + 30_000;
  for (;;) {
    meter.begin();
    await sleep(1000);
    const busy = meter.end(1).reduce((sum, c) => sum + (c.process === LOAD_GENERATOR || ENGINES.some((e) => e.name === c.process) ? 0 : (c.cpuMs ?? 0)), 0);
    if (busy < 200) return;
    if (performance.now() > deadline) {
      ctx.log(`  the stack was still using ${round(busy / 1000)} cores after 30 s; measuring anyway`);
      return;
    }
  }
}

/** Requests per second of one redis-benchmark run (CSV: the second line's second field). */
async function redisBenchmark(ctx: BenchContext, args: string[]): Promise<number> {
  const url = new URL(ctx.redisUrl);
  const { stdout } = await run('redis-benchmark', ['-h', url.hostname, '-p', url.port || '6379', '-q', '--csv', ...args]);
  const rps = Number(/\n"[^"]*","([\d.]+)"/.exec(stdout)?.[1] ?? Number.NaN);
  if (!Number.isFinite(rps)) throw new Error(`redis-benchmark said: ${stdout.slice(0, 500)}`);
  return rps;
}

/**
 * What one of our inserts is, without the queue, Postgres or our code: for
 * each call, `audience` distinct random timelines of a `keyspace` of them,
 * each a ZADD, a trim to the cap and an EXPIRE, pipelined in one round trip
 * (the obvious way to write it with the worker's client, ioredis),
 * REFERENCE_IN_FLIGHT calls at once from one Node process (the bench's).
 * Inserts counted from Redis afterwards.
 */
async function pipelinedReference(ctx: BenchContext, keyspace: number, audience: number, total: number): Promise<{ inserts: number; seconds: number; insertsPerSecond: number }> {
  const redis = new Redis(ctx.redisUrl);
  const key = (i: number) => `${ctx.namespace}:ref:timeline:${i}`;
  const calls = Math.ceil(total / audience);
  let next = 0;
  try {
    const started = performance.now();
    await Promise.all(
      Array.from({ length: REFERENCE_IN_FLIGHT }, async () => {
        while (next < calls) {
          next++;
          const picked = new Set<number>();
          while (picked.size < Math.min(audience, keyspace)) picked.add(Math.floor(Math.random() * keyspace));
          const member = memberOf({ authorId: randomUUID(), sessionId: randomUUID() });
          const score = Date.now();
          const pipeline = redis.pipeline();
          for (const i of picked) pipeline.zadd(key(i), score, member).zremrangebyrank(key(i), 0, -(TIMELINE_CAP + 2)).expire(key(i), 14 * 24 * 3600);
          const failed = ((await pipeline.exec()) ?? []).find(([err]) => err);
          if (failed) throw failed[0];
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    let inserts = 0;
    for (let i = 0; i < keyspace; i += 2000) {
      const pipeline = redis.pipeline();
      for (let k = i; k < Math.min(keyspace, i + 2000); k++) pipeline.zcard(key(k));
      for (const [, n] of (await pipeline.exec()) ?? []) inserts += Number(n);
    }
    return { inserts, seconds: round(seconds, 3), insertsPerSecond: inserts / seconds };
  } finally {
    redis.disconnect();
  }
}

async function unlinkAll(redis: Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== '0');
}
