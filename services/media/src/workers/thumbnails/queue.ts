import type { Logger } from '@hoptrack/runtime';
import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import { Gauge, type Registry } from 'prom-client';

export const THUMBNAIL_JOB = 'thumbnail';
export interface ThumbnailJob {
  photoId: string;
}

export interface QueueSettings {
  redisUrl: string;
  name: string;
  /** Key prefix in Redis: one per deployment (bus namespace), so test runs never share queues. */
  prefix: string;
  attempts: number;
  concurrency: number;
  lockMs: number;
  stalledIntervalMs: number;
}

function connection(redisUrl: string): ConnectionOptions {
  const url = new URL(redisUrl);
  // BullMQ requires maxRetriesPerRequest null: its blocking commands must wait, not fail.
  return { host: url.hostname, port: Number(url.port || 6379), db: Number(url.pathname.slice(1) || 0), maxRetriesPerRequest: null };
}

export function createThumbnailQueue(settings: QueueSettings): Queue<ThumbnailJob> {
  return new Queue<ThumbnailJob>(settings.name, { connection: connection(settings.redisUrl), prefix: settings.prefix });
}

/** Enqueues once per photo: the job id is the photo id, so a redelivered event adds nothing. */
export async function enqueueThumbnail(queue: Queue<ThumbnailJob>, photoId: string, attempts: number): Promise<void> {
  await queue.add(THUMBNAIL_JOB, { photoId }, {
    jobId: photoId,
    attempts,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: { count: 1000 },
    removeOnFail: { count: 5000 },
  });
}

export function createThumbnailWorker(
  settings: QueueSettings,
  process: (photoId: string) => Promise<string>,
  logger: Logger,
): Worker<ThumbnailJob, string> {
  const worker = new Worker<ThumbnailJob, string>(settings.name, (job) => process(job.data.photoId), {
    connection: connection(settings.redisUrl),
    prefix: settings.prefix,
    concurrency: settings.concurrency,
    lockDuration: settings.lockMs,
    stalledInterval: settings.stalledIntervalMs,
  });
  worker.on('failed', (job, err) => logger.error({ jobId: job?.id, attemptsMade: job?.attemptsMade, err }, 'thumbnail job failed'));
  worker.on('error', (err) => logger.error({ err }, 'thumbnail worker error'));
  return worker;
}

/** Queue depth by state on the worker's /metrics. */
export function registerQueueMetrics(registry: Registry, queue: Queue<ThumbnailJob>): void {
  new Gauge({
    name: 'bullmq_jobs',
    help: 'Jobs in the queue by state',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed');
      for (const [state, count] of Object.entries(counts)) this.set({ queue: queue.name, state }, count);
    },
  });
}
