import { randomUUID } from 'node:crypto';
import { streamNameFor, type FeedSession } from '@hoptrack/proto';
import { connectBus, createLogger, createTokenService, DEV_SIGNING_KEY, ensureStreams, type Bus } from '@hoptrack/runtime';
import { bullConnection, queuePrefix } from '@hoptrack/runtime/queues';
import { eventually, publishEvent, testDatabaseUrl, testNamespace, testUserSnapshot } from '@hoptrack/testing';
import { faultGate, sumTallies, tally, timelineSessionIds, type FaultGate, type Tally } from '@hoptrack/testing/faults';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startProcess, type RunningProcess } from '@hoptrack/testing/processes';
import { privateRedis, type PrivateServer } from '@hoptrack/testing/servers';

/**
 * Issue 9, item 6 (issue 18, item 3): Redis (timelines and the fan-out queue)
 * killed -9 while fan-out work waits and two batches are half-way (the
 * worker held between two timeline writes by FANOUT_FAULT_GATE_FILE: the
 * first batch, which the consumer runs itself since issue 41, and the
 * chained one a BullMQ job runs), then restarted. Logging keeps answering
 * 201 (the session is committed; the author's own timeline entry is
 * best-effort), the feed is served from Postgres meanwhile, the events held
 * behind the gated one wait in JetStream, the queued job survives in the
 * append-only file, the fan-out work refused while Redis was down is
 * redelivered by JetStream: every follower's timeline ends with every
 * session exactly once — counted by session id in Redis before any read
 * rebuilds it, and again after the rebuild.
 */
const namespace = testNamespace('redisrestart');
let redis: PrivateServer;
let bus: Bus;
let sessions: RunningProcess;
let worker: RunningProcess;
let gate: FaultGate;
const tokens = await createTokenService({ keys: [DEV_SIGNING_KEY], expiresIn: '1h'  });

beforeAll(async () => {
  redis = await privateRedis();
  gate = faultGate();
  gate.open();
  bus = await connectBus({ url: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', name: 'redis-restart', namespace, logger: createLogger('redis-restart', 'silent') });
  await ensureStreams(bus, ['USERS', 'SOCIAL', 'SESSIONS']);
  const env = {
    NODE_ENV: 'development',
    LOG_LEVEL: 'error',
    DATABASE_URL: testDatabaseUrl('sessions_redis_restart'),
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    REDIS_URL: redis.url,
    BUS_NAMESPACE: namespace,
    MEDIA_INTERNAL_URL: 'http://127.0.0.1:9',
    OUTBOX_POLL_MS: '100',
    FANOUT_BATCH: '2',
  };
  sessions = await startProcess({ name: 'sessions', entry: 'services/sessions/src/server.ts', port: await freePort(), env });
  // One job at a time: the chained batch held at the gate holds the worker.
  worker = await startProcess({
    name: 'sessions-fanout',
    entry: 'services/sessions/src/workers/fanout/main.ts',
    port: await freePort(),
    env: { ...env, FANOUT_CONCURRENCY: '1', FANOUT_LOCK_MS: '2000', FANOUT_STALLED_INTERVAL_MS: '1000', FANOUT_ACK_WAIT_MS: '2000', FANOUT_FAULT_GATE_FILE: gate.path },
  });
});
afterAll(async () => {
  gate?.open();
  await worker?.stop();
  await sessions?.stop();
  await bus?.close();
  await redis?.stop();
  gate?.remove();
});

const auth = async (userId: string) => ({ authorization: `Bearer ${await tokens.sign({ userId, tokenVersion: 0 })}` });
async function logSession(authorId: string, title: string): Promise<Response> {
  const form = new FormData();
  form.append('title', title);
  return fetch(`${sessions.url}/api/sessions`, { method: 'POST', headers: await auth(authorId), body: form, signal: AbortSignal.timeout(30_000) });
}
async function feed(userId: string): Promise<FeedSession[]> {
  const res = await fetch(`${sessions.url}/api/sessions?filter=all&limit=50`, { headers: await auth(userId), signal: AbortSignal.timeout(30_000) });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as FeedSession[];
}

describe('Redis killed and restarted under the feed', () => {
  it('with fan-out events waiting and two batches half written: keeps logging and reading, then brings every session to every follower exactly once', { timeout: 300_000 }, async () => {
    const author = randomUUID();
    const followers = Array.from({ length: 4 }, () => randomUUID());
    for (const id of [author, ...followers]) await publishEvent(bus, 'user.registered.v1', testUserSnapshot(id));
    for (const id of followers) await publishEvent(bus, 'social.friendship.accepted.v1', { friendshipId: randomUUID(), requesterId: author, recipientId: id });
    const logged: string[] = [];
    const logOne = async (title: string) => {
      const res = await logSession(author, title);
      expect(res.status, await res.clone().text()).toBe(201);
      logged.push(((await res.json()) as FeedSession).id);
    };
    const client = new Redis(redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue('feed-fanout', { connection: bullConnection(redis.url), prefix: queuePrefix(namespace) });
    // Errors while Redis is down are expected; without listeners they would be unhandled.
    client.on('error', () => undefined);
    queue.on('error', () => undefined);
    const holding = async (id: string) => (await timelineSessionIds(client, namespace, id)).includes(logged.at(-1) ?? '');
    try {
      // The read models must know the friendships before the first fan-out (it reads them).
      await eventually(async () => {
        await logOne('probe');
        return (await feed(followers[0] as string)).length > 0;
      }, 'friendships applied', 30_000);
      // Each follower has read their feed: fan-out writes only the timelines of people active in the last 30 days (issue 41).
      for (const id of followers) await feed(id);
      await logOne('before');
      await eventually(async () => (await Promise.all(followers.map(holding))).every(Boolean), 'fanned out before the fault', 30_000);
      await eventually(async () => Object.values(await queue.getJobCounts('waiting', 'active', 'delayed')).every((n) => n === 0), 'fan-out idle before the fault', 30_000);

      // Close the gate: the next session's two batches (FANOUT_BATCH 2, four followers) each write their first
      // follower and hold — the consumer's own, and the chained job's; the events behind them wait in JetStream.
      gate.close();
      await logOne('held');
      await eventually(async () => (await Promise.all(followers.map(holding))).filter(Boolean).length === 2, 'both batches half written at the gate', 30_000);
      for (let i = 0; i < 3; i++) await logOne(`queued ${i}`);
      // Behind the held event: unread, or read and waiting in the consumer's queue (delivered, not acknowledged).
      const pending = async () => {
        const info = await bus.jsm.consumers.info(streamNameFor(namespace, 'SESSIONS'), 'sessions-fanout-sessions');
        return info.num_pending + info.num_ack_pending - 1;
      };
      await eventually(async () => (await pending()) >= 3, 'fan-out events waiting behind the held one', 30_000);
      const atKill = { active: (await queue.getJobCounts('active')).active ?? 0, pending: await pending() };
      await redis.kill();

      for (let i = 0; i < 3; i++) await logOne(`during ${i}`);
      // The feed is read from Postgres meanwhile: the new sessions are already there.
      const during = await feed(followers[1] as string);
      expect(new Set(during.map((s) => s.id))).toEqual(new Set(logged));

      await redis.start();
      for (let i = 0; i < 2; i++) await logOne(`after ${i}`);
      gate.open();

      // Straight from Redis, before any read rebuilds a timeline: each follower's entries by session id.
      const copies = async (): Promise<Tally> => sumTallies(await Promise.all(followers.map(async (f) => tally(logged, await timelineSessionIds(client, namespace, f)))));
      // Bounded generously: the events refused while Redis was down come back with JetStream's growing backoff (up to 30 s a try).
      await eventually(async () => (await copies()).lost === 0, 'every session on every timeline after the restart', 150_000).catch(() => undefined);
      await eventually(async () => Object.values(await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized')).every((n) => n === 0), 'fan-out queue drained', 60_000).catch(() => undefined);
      const fromRedis = await copies();
      const failed = (await queue.getJobCounts('failed')).failed;
      // Every follower reads the feed (which merges Postgres into a timeline not yet marked complete), then count again.
      const feeds = sumTallies(await Promise.all(followers.map(async (f) => tally(logged, (await feed(f)).map((s) => s.id)))));
      const afterRebuild = await copies();
      const entries = logged.length * followers.length;
      const fmt = (x: Tally) => `ok ${x.ok}, lost ${x.lost}, duplicated ${x.duplicated}`;
      console.info(
        `[figure] Redis kill -9 with ${atKill.pending} fan-out events waiting, one batch half-way in the consumer and ${atKill.active} in a job: ${logged.length} sessions × ${followers.length} followers = ${entries} timeline entries; ` +
          `from Redis before any read: ${fmt(fromRedis)}; after the reads' rebuild: ${fmt(afterRebuild)}; feeds: ${fmt(feeds)}; unknown 0 (every POST answered 201); failed jobs ${failed} ` +
          `(work runs at least once: a held batch may run again once its ack wait or lock lapses; its writes are idempotent)`,
      );
      for (const x of [fromRedis, afterRebuild, feeds]) expect(x).toEqual({ ok: entries, lost: 0, duplicated: 0, extraCopies: 0, unexpected: 0 });
      expect(failed).toBe(0);
    } finally {
      await queue.close();
      client.disconnect();
    }
  });
});
