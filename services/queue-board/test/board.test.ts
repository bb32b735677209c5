import { createMetrics } from '@hoptrack/runtime';
import { bullConnection, queuePrefix } from '@hoptrack/runtime/queues';
import { eventually, memoryLogger, testNamespace } from '@hoptrack/testing';
import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBoardApp, type BoardApp } from '../src/app';
import { boardConfigSchema } from '../src/config';

/**
 * The queue board against real Redis: a job that failed every try shows as
 * failed, an operator with the password retries it and it runs again; without
 * the password nothing of the board answers (probes and metrics do).
 */
const PASSWORD = 'board-password-123';
const namespace = testNamespace('board');
const config = boardConfigSchema.parse({
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  BUS_NAMESPACE: namespace,
  QUEUE_BOARD_PASSWORD: PASSWORD,
  QUEUE_BOARD_QUEUES: 'thumbnails,feed-fanout',
});
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const operator = { authorization: basic('operator', PASSWORD) };

let board: BoardApp;
let queue: Queue;
let worker: Worker;
let runs = 0;

beforeAll(async () => {
  board = await buildBoardApp({ config, logger: memoryLogger('queue-board').logger, metrics: createMetrics('queue-board') });
  await board.app.ready();
  const connection = bullConnection(config.REDIS_URL);
  queue = new Queue('thumbnails', { connection, prefix: queuePrefix(namespace) });
  // Fails the first run, succeeds after a retry: what an operator's retry is for.
  worker = new Worker(
    'thumbnails',
    async () => {
      runs += 1;
      if (runs === 1) throw new Error('sharp could not decode the image');
    },
    { connection, prefix: queuePrefix(namespace) },
  );
  await queue.add('thumbnail', { photoId: 'p1' }, { jobId: 'photo-p1', attempts: 1 });
  await eventually(async () => (await queue.getJobCounts('failed')).failed === 1, 'the job failed');
});
afterAll(async () => {
  await worker?.close();
  await queue?.obliterate({ force: true });
  await queue?.close();
  await board?.close();
  await board?.app.close();
});

describe('queue board', () => {
  it('asks for the operator credentials, and refuses wrong ones', async () => {
    for (const headers of [{}, { authorization: basic('operator', 'wrong-password-1') }, { authorization: basic('someone', PASSWORD) }, { authorization: 'Bearer x' }]) {
      const res = await board.app.inject({ method: 'GET', url: '/queues', headers });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Basic realm=/);
      const api = await board.app.inject({ method: 'GET', url: '/queues/api/queues', headers });
      expect(api.statusCode).toBe(401);
    }
  });

  it('serves the board to the operator', async () => {
    const res = await board.app.inject({ method: 'GET', url: '/queues', headers: operator });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });

  it('lists both queues and the failed job with its error', async () => {
    const res = await board.app.inject({ method: 'GET', url: '/queues/api/queues?activeQueue=thumbnails&status=failed&page=1', headers: operator });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ queues: Array<{ name: string; counts: Record<string, number>; jobs: Array<{ id: string; failedReason: string }> }> }>();
    expect(body.queues.map((q) => q.name).sort()).toEqual(['feed-fanout', 'thumbnails']);
    const thumbnails = body.queues.find((q) => q.name === 'thumbnails');
    expect(thumbnails?.counts.failed).toBe(1);
    expect(thumbnails?.jobs).toEqual([expect.objectContaining({ id: 'photo-p1', failedReason: 'sharp could not decode the image' })]);
  });

  it('retries a failed job for the operator, and it runs again', async () => {
    const res = await board.app.inject({ method: 'PUT', url: '/queues/api/queues/thumbnails/photo-p1/retry', headers: operator });
    expect(res.statusCode, res.body).toBe(204);
    await eventually(async () => (await queue.getJobCounts('completed')).completed === 1, 'the retried job completed');
    expect(runs).toBe(2);
  });

  it('leaves health, readiness and metrics open for probes and Prometheus', async () => {
    expect((await board.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await board.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    const metrics = await board.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toContain('http_request_duration_seconds');
  });
});
