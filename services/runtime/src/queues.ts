import { Worker, type ConnectionOptions, type Job, type Queue } from 'bullmq';
import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';

/**
 * What every BullMQ queue of ours shares: how it reaches Redis and how its
 * depth shows on /metrics. A subpath of the runtime (`@hoptrack/runtime/queues`),
 * so services without queues never load BullMQ.
 */
export function bullConnection(redisUrl: string): ConnectionOptions {
  const url = new URL(redisUrl);
  // BullMQ requires maxRetriesPerRequest null: its blocking commands must wait, not fail.
  return {
    host: url.hostname,
    port: Number(url.port || 6379),
    db: Number(url.pathname.slice(1) || 0),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    maxRetriesPerRequest: null,
  };
}

/** Key prefix of a deployment's queues (its bus namespace), so test runs never share queues. */
export const queuePrefix = (namespace: string) => `${namespace}:bull`;

/** Jobs by state, per queue, on the process's /metrics (gauge `bullmq_jobs`). */
export function registerQueueMetrics(registry: Registry, queues: Queue[]): void {
  new Gauge({
    name: 'bullmq_jobs',
    help: 'Jobs in the queue by state',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      for (const queue of queues) {
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed');
        for (const [state, count] of Object.entries(counts)) this.set({ queue: queue.name, state }, count);
      }
    },
  });
}

export interface QueueSettings {
  redisUrl: string;
  name: string;
  /** See queuePrefix. */
  prefix: string;
  attempts: number;
  concurrency: number;
  /** How long a job's lock lasts; a worker that dies mid-job frees it after this and another run picks it up. */
  lockMs: number;
  stalledIntervalMs: number;
}

/** A BullMQ worker with our connection, locks and failure logging. */
export function createQueueWorker<Data, Result>(
  settings: QueueSettings,
  run: (job: Job<Data, Result>) => Promise<Result>,
  logger: Logger,
): Worker<Data, Result> {
  const worker = new Worker<Data, Result>(settings.name, run, {
    connection: bullConnection(settings.redisUrl),
    prefix: settings.prefix,
    concurrency: settings.concurrency,
    lockDuration: settings.lockMs,
    stalledInterval: settings.stalledIntervalMs,
  });
  worker.on('failed', (job, err) => logger.error({ queue: settings.name, jobId: job?.id, attemptsMade: job?.attemptsMade, err }, 'job failed'));
  worker.on('error', (err) => logger.error({ queue: settings.name, err }, 'queue worker error'));
  return worker;
}
