import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { Pool } from 'undici';
import type { Benchmark } from './lib/context';
import { openLoopCalls, summarise } from './lib/load';
import { ProcessMeter } from './lib/procstat';
import { compare, round, stepSummary } from './lib/report';
import { SESSION_FORM_CONTENT_TYPE, sessionFormBody } from './lib/session-form';
import { userId } from './seed';

/**
 * 4. Fan-out: sessions created at a steady rate through the gateway by
 * ordinary people; how many timeline inserts per second the fan-out worker
 * completes, how long until each new session is on a friend's timeline (the
 * friend last in the fan-out's order, so the worst of its friends), and how
 * long a 5,000-friend author's session takes to reach every friend. The
 * reference is redis-benchmark's pipelined ZADD and LPUSH against the same
 * Redis in the same run: the ceiling of any timeline store on this machine
 * (each of our inserts is a ZADD, a trim and an EXPIRE).
 */
const FORM = sessionFormBody({ title: 'Fan-out night', beerCount: '2', duration: '90' });
const run = promisify(execFile);

interface Created {
  sessionId: string;
  authorId: string;
  /** The follower the fan-out reaches last (it goes in follower-id order). */
  lastFollower: string;
  audience: number;
  sentAt: number;
  seenAt?: number;
}

export const benchFanout: Benchmark = async (ctx) => {
  const redis = new Redis(ctx.redisUrl);
  const db = new pg.Client({ connectionString: ctx.databases.sessions });
  await db.connect();
  const http = new Pool(ctx.stack.baseUrl, { connections: 32 });
  const timeline = (user: string) => `${ctx.namespace}:timeline:${user}`;
  const create = async (person: number): Promise<{ sessionId: string; sentAt: number }> => {
    const sentAt = performance.now();
    const res = await http.request({
      path: '/api/sessions',
      method: 'POST',
      headers: { authorization: `Bearer ${await ctx.token(person)}`, 'content-type': SESSION_FORM_CONTENT_TYPE },
      body: FORM,
    });
    const body = (await res.body.json()) as { id?: string };
    if (res.statusCode !== 201 || !body.id) throw new Error(`create answered ${res.statusCode}`);
    return { sessionId: body.id, sentAt };
  };
  /**
   * Polls every 5 ms, from the first create on, until each session is on its
   * last follower's timeline: `created` grows while the load runs, and the
   * watch ends once `loadDone` is set and nothing is pending (or at the deadline).
   */
  const watch = async (created: Created[], isLoadDone: () => boolean, deadlineMs: number) => {
    const deadline = performance.now() + deadlineMs;
    for (;;) {
      const pending = created.filter((c) => c.seenAt === undefined);
      if ((pending.length === 0 && isLoadDone()) || performance.now() > deadline) return;
      if (pending.length > 0) {
        const pipeline = redis.pipeline();
        for (const c of pending) pipeline.zscore(timeline(c.lastFollower), `${c.authorId}:${c.sessionId}`);
        const answers = (await pipeline.exec()) ?? [];
        const now = performance.now();
        pending.forEach((c, i) => {
          if (answers[i]?.[1] !== null && answers[i]?.[1] !== undefined) c.seenAt = now;
        });
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  };

  try {
    // Authors: ordinary people who have friends, with the follower the fan-out reaches last and the audience size
    // (a follower who muted the author is not in it: the fan-out skips them).
    const people = Array.from({ length: ctx.smoke ? 20 : 400 }, (_, i) => Math.floor(ctx.seed.scale.users * 0.6) + i).filter((i) => i % 10 !== 0);
    const rows = (
      await db.query<{ followee_id: string; follower_id: string; n: string }>(
        `SELECT DISTINCT ON (f.followee_id) f.followee_id, f.follower_id, count(*) OVER (PARTITION BY f.followee_id) AS n
         FROM follows f WHERE f.followee_id = ANY($1::uuid[])
           AND NOT EXISTS (SELECT 1 FROM mutes m WHERE m.user_id = f.follower_id AND m.muted_id = f.followee_id)
         ORDER BY f.followee_id, f.follower_id DESC`,
        [people.map(userId)],
      )
    ).rows;
    const byId = new Map(rows.map((r) => [r.followee_id, { lastFollower: r.follower_id, audience: Number(r.n) }]));
    const authors = people.filter((i) => byId.has(userId(i)));
    if (authors.length === 0) throw new Error('no author with friends');

    // Steady load: creates at a fixed rate; the worker's CPU is counted over the whole window until the last insert.
    const rate = ctx.smoke ? 5 : 40;
    const seconds = ctx.smoke ? 2 : 15;
    const meter = ProcessMeter.of([
      { name: 'sessions', pid: ctx.stack.services.sessions.child.pid ?? 0 },
      { name: 'sessions-fanout', pid: ctx.stack.services['sessions-fanout'].child.pid ?? 0 },
    ]);
    const created: Created[] = [];
    meter.begin();
    const started = performance.now();
    let loadDone = false;
    const watching = watch(created, () => loadDone, (seconds + 60) * 1000);
    const step = await openLoopCalls(rate, seconds, async (i) => {
      const person = authors[i % authors.length] as number;
      const { sessionId, sentAt } = await create(person);
      created.push({ sessionId, authorId: userId(person), sentAt, ...(byId.get(userId(person)) as { lastFollower: string; audience: number }) });
      return 201;
    });
    loadDone = true;
    await watching;
    if (step.errors > 0) throw new Error(`creates failed: ${JSON.stringify(step.statuses)}`);
    const lastSeen = Math.max(...created.map((c) => c.seenAt ?? Number.POSITIVE_INFINITY));
    const inserts = created.reduce((sum, c) => sum + c.audience + 1, 0); // +1: the author's own timeline
    const costs = meter.end(inserts).map((c) => ({ at: `fan-out, per timeline insert, at ${rate} creates/s`, ...c }));
    const missing = created.filter((c) => c.seenAt === undefined).length;
    if (missing > 0) throw new Error(`${missing} of ${created.length} sessions never reached their last follower`);
    const insertsPerSecond = inserts / ((lastSeen - started) / 1000);
    const lag = summarise(created.map((c) => (c.seenAt as number) - c.sentAt));
    ctx.log(`  steady: ${created.length} creates, ${inserts} inserts, ${Math.round(insertsPerSecond)} inserts/s, lag p50 ${lag.p50.toFixed(1)} p99 ${lag.p99.toFixed(1)} ms`);

    // The celebrity: every friend's timeline, checked in one pipeline per poll.
    const celebrityFollowers = (
      await db.query<{ follower_id: string }>(
        'SELECT f.follower_id FROM follows f WHERE f.followee_id = $1 AND NOT EXISTS (SELECT 1 FROM mutes m WHERE m.user_id = f.follower_id AND m.muted_id = f.followee_id)',
        [userId(ctx.seed.celebrity)],
      )
    ).rows.map(
      (r) => r.follower_id,
    );
    const celebrityRuns: number[] = [];
    for (let k = 0; k < (ctx.smoke ? 1 : 3); k++) {
      const { sessionId, sentAt } = await create(ctx.seed.celebrity);
      const member = `${userId(ctx.seed.celebrity)}:${sessionId}`;
      let waiting = celebrityFollowers;
      const deadline = performance.now() + 120_000;
      while (waiting.length > 0 && performance.now() < deadline) {
        const pipeline = redis.pipeline();
        for (const f of waiting) pipeline.zscore(timeline(f), member);
        const answers = (await pipeline.exec()) ?? [];
        waiting = waiting.filter((_, i) => answers[i]?.[1] === null || answers[i]?.[1] === undefined);
        if (waiting.length > 0) await new Promise((r) => setTimeout(r, 20));
      }
      if (waiting.length > 0) throw new Error(`the celebrity's session missed ${waiting.length} friends after 2 minutes`);
      celebrityRuns.push(performance.now() - sentAt);
    }
    const celebrityMs = summarise(celebrityRuns).p50;
    ctx.log(`  celebrity (${celebrityFollowers.length} friends): ${celebrityMs.toFixed(0)} ms`);

    // The reference, same Redis, same run.
    const url = new URL(ctx.redisUrl);
    const { stdout } = await run('redis-benchmark', ['-h', url.hostname, '-p', url.port || '6379', '-t', 'zadd,lpush', '-n', ctx.smoke ? '20000' : '500000', '-P', '64', '-q', '--csv']);
    const rps = (test: string) => Number(new RegExp(`"${test}","([\\d.]+)"`).exec(stdout)?.[1] ?? 0);
    const zadd = rps('ZADD');
    const lpush = rps('LPUSH');
    const celebrityRate = celebrityFollowers.length / (celebrityMs / 1000);
    return {
      id: 'fanout',
      title: 'Fan-out',
      comparisons: [
        compare({
          measure: `Timeline inserts per second at ${rate} creates/s (each a ZADD + trim + EXPIRE)`,
          value: insertsPerSecond,
          unit: 'inserts/s',
          reference: 'redis-benchmark pipelined ZADD (-P 64), same Redis',
          referenceValue: zadd,
          note: `LPUSH: ${Math.round(lpush)} ops/s; the steady load offers only ${Math.round(inserts / seconds)} inserts/s, so this is a floor`,
        }),
        compare({
          measure: `5,000-friend author: inserts per second while reaching all ${celebrityFollowers.length} friends`,
          value: celebrityRate,
          unit: 'inserts/s',
          reference: 'redis-benchmark pipelined ZADD (-P 64), same Redis',
          referenceValue: zadd,
          note: `${round(celebrityMs / 1000, 2)} s from the create's request to the last friend's timeline`,
        }),
        compare({
          measure: 'Lag from create to a friend\'s timeline, p99',
          value: lag.p99,
          unit: 'ms',
          reference: 'the same lag, p50',
          referenceValue: lag.p50,
        }),
      ],
      costs,
      details: {
        creates: created.length,
        createStep: stepSummary(step),
        timelineInserts: inserts,
        insertsPerSecond: Math.round(insertsPerSecond),
        lagMs: { p50: round(lag.p50), p90: round(lag.p90), p99: round(lag.p99), max: round(lag.max) },
        celebrity: { friends: celebrityFollowers.length, runsMs: celebrityRuns.map((ms) => Math.round(ms)), medianMs: Math.round(celebrityMs) },
        redisBenchmark: { zadd, lpush, pipeline: 64 },
      },
    };
  } finally {
    await http.close();
    await db.end();
    redis.disconnect();
  }
};
