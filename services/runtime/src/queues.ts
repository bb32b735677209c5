import { Worker, type ConnectionOptions, type Job, type Queue } from 'bullmq';
import type { Logger } from 'pino';
import { Gauge, Histogram, type Registry } from 'prom-client';

/** BullMQ itself, for code outside the services (the bench) that must run the very copy the runtime runs. */
export * as bullmq from 'bullmq';

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

/** Jobs by state, per queue, on the process's /metrics (gauge `bullmq_jobs`; `scheduled`: job schedulers' next runs). */
export function registerQueueMetrics(registry: Registry, queues: Queue[]): void {
  new Gauge({
    name: 'bullmq_jobs',
    help: 'Jobs in the queue by state',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      for (const queue of queues) {
        const [counts, schedulers] = await Promise.all([
          queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed'),
          queue.getJobSchedulersCount(),
        ]);
        // A job scheduler (a repeatable job) keeps its next run as one delayed job at all times: that
        // is its timetable, not a backlog, so it is counted as `scheduled` and left out of `delayed`.
        const scheduled = Math.min(schedulers, counts.delayed ?? 0);
        for (const [state, count] of Object.entries({ ...counts, delayed: (counts.delayed ?? 0) - scheduled, scheduled })) {
          this.set({ queue: queue.name, state }, count);
        }
      }
    },
  });
}

const JOB_DURATION = 'bullmq_job_duration_seconds';

/**
 * `bullmq_job_duration_seconds{queue, outcome}`: from a job's start to its end,
 * per try (thumbnail duration, fan-out batch duration). Workers of several
 * queues in one process share the one histogram.
 */
export function observeQueueWorker(registry: Registry, worker: Worker, queue: string): void {
  const histogram =
    (registry.getSingleMetric(JOB_DURATION) as Histogram<'queue' | 'outcome'> | undefined) ??
    new Histogram({
      name: JOB_DURATION,
      help: 'Time a job ran, per attempt, by queue and outcome',
      labelNames: ['queue', 'outcome'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    });
  const observe = (outcome: string) => (job: Job | undefined) => {
    if (job?.processedOn && job.finishedOn) histogram.observe({ queue, outcome }, (job.finishedOn - job.processedOn) / 1000);
  };
  worker.on('completed', observe('completed'));
  worker.on('failed', observe('failed'));
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
