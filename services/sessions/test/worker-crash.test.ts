import { randomUUID } from 'node:crypto';
import { eventually } from '@hoptrack/testing';
import { queuePrefix } from '@hoptrack/runtime/queues';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startProcess, type RunningProcess } from '@hoptrack/testing/processes';
import { createFanoutQueue } from '../src/feed/queue';
import { feedIds } from './helpers';
import { startTestSessions, type Client, type TestSessions } from './support';

/**
 * The real fan-out worker process, SIGKILLed while a chained fan-out runs
 * (each job slowed by FANOUT_FAULT_DELAY_MS): a new process must finish the
 * job whose lock lapsed, and every timeline ends with the session exactly once.
 */
let t: TestSessions;
const processes: RunningProcess[] = [];
beforeAll(async () => {
  t = await startTestSessions();
});
afterAll(async () => {
  for (const p of processes) await p.stop('SIGKILL');
  await t?.close();
});

const startWorker = async () => {
  const proc = await startProcess({
    name: 'sessions-fanout',
    entry: 'services/sessions/src/workers/fanout/main.ts',
    port: await freePort(),
    env: { ...t.env, LOG_LEVEL: 'warn', FANOUT_FAULT_DELAY_MS: '400' },
  });
  processes.push(proc);
  return proc;
};
const fanoutQueue = () =>
  createFanoutQueue({
    redisUrl: t.config.REDIS_URL,
    name: t.config.FANOUT_QUEUE,
    prefix: queuePrefix(t.config.BUS_NAMESPACE),
    attempts: 1,
    concurrency: 1,
    lockMs: 2000,
    stalledIntervalMs: 1000,
  });
const has = async (user: Client, member: string) => (await t.redis.zscore(t.timelines.key(user.id), member)) !== null;
const copies = async (user: Client, member: string) => (await t.redis.zrange(t.timelines.key(user.id), 0, -1)).filter((m) => m === member).length;

describe('the fan-out worker killed mid-batch', () => {
  it('a new worker finishes the fan-out: every friend holds the session exactly once', { timeout: 120_000 }, async () => {
    const author = await t.user();
    const friends = await Promise.all(Array.from({ length: 8 }, () => t.user()));
    for (const f of friends) await t.befriend(author, f);
    // Only the worker process fans out from here on.
    await t.fanout.stop();
    const first = await startWorker();

    const res = await author.form('POST', '/api/sessions', { title: 'Crash test' });
    expect(res.statusCode, res.body).toBe(201);
    const member = `${author.id}:${res.json().id}`;
    await t.relay.drain();

    // The author's own entry comes with the POST; the first batch (3 friends) is the worker's.
    expect(await has(author, member)).toBe(true);
    // Once the first batch is written the chain goes on: kill it now.
    await eventually(async () => (await Promise.all(friends.map((f) => has(f, member)))).some(Boolean), 'first batch written', 15_000);
    await first.stop('SIGKILL');
    expect(first.child.signalCode).toBe('SIGKILL');
    const reached = (await Promise.all(friends.map((f) => has(f, member)))).filter(Boolean).length;
    expect(reached).toBeLessThan(friends.length);

    await startWorker();
    await eventually(async () => (await Promise.all(friends.map((f) => has(f, member)))).every(Boolean), 'every friend reached after restart', 25_000);
    for (const who of [author, ...friends]) expect(await copies(who, member)).toBe(1);

    const queue = fanoutQueue();
    try {
      await eventually(async () => {
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
        return Object.values(counts).every((n) => n === 0);
      }, 'queue drained without failures', 15_000);
    } finally {
      await queue.close();
    }
    expect(new Set(await feedIds(friends[7]!))).toEqual(new Set([member.split(':')[1]]));
  });

  it('SIGTERM mid-batch (issue 9, item 8): the worker finishes its job, exits 0, leaves nothing stalled; the next one goes on', { timeout: 120_000 }, async () => {
    const author = await t.user();
    const friends = await Promise.all(Array.from({ length: 8 }, () => t.user()));
    // (t.befriend waits on the in-process fan-out, stopped by the test above: wait on the read model instead.)
    for (const f of friends) await t.publish('social.friendship.accepted.v1', { friendshipId: randomUUID(), requesterId: author.id, recipientId: f.id });
    await eventually(async () => (await t.prisma.follow.count({ where: { followeeId: author.id, isFriend: true } })) === friends.length, 'friendships applied', 15_000);
    // The previous test's worker is idle; stop it so this one is the only worker.
    for (const p of processes.splice(0)) await p.stop();
    const worker = await startWorker();
    const res = await author.form('POST', '/api/sessions', { title: 'Drain test' });
    expect(res.statusCode, res.body).toBe(201);
    const member = `${author.id}:${res.json().id}`;
    await t.relay.drain();
    await eventually(async () => (await Promise.all(friends.map((f) => has(f, member)))).some(Boolean), 'first batch written', 15_000);

    await worker.stop('SIGTERM');
    expect(worker.child.exitCode).toBe(0);
    const queue = fanoutQueue();
    try {
      // Drained, not abandoned: no job is left active (it would stall and run again after its lock).
      expect((await queue.getJobCounts('active')).active).toBe(0);
      await startWorker();
      await eventually(async () => (await Promise.all(friends.map((f) => has(f, member)))).every(Boolean), 'every friend reached', 25_000);
      for (const who of [author, ...friends]) expect(await copies(who, member)).toBe(1);
      await eventually(async () => Object.values(await queue.getJobCounts('waiting', 'active', 'delayed', 'failed')).every((n) => n === 0), 'queue drained without failures', 15_000);
    } finally {
      await queue.close();
    }
  });
});
