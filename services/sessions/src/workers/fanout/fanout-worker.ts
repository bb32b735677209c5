import { startConsumer, type Logger, type RunningConsumer } from '@hoptrack/runtime';
import { observeQueueWorker } from '@hoptrack/runtime/queues';
import { Histogram, type Registry } from 'prom-client';
import type { Worker } from 'bullmq';
import type { SessionsConfig } from '../../config';
import type { SessionsConnections } from '../../connections';
import { BackfillAnnouncer } from '../../feed/backfill-announce';
import { runFanoutJob, type FanoutDeps, type FanoutJob } from '../../feed/fanout';
import { createFanoutWorker, enqueueFanout, fanoutHandlers, fanoutQueueSettings, UNGUARDED_EVENTS } from '../../feed/queue';
import { skipErased } from '../../domain/erasure';
import { timelinesFor } from '../../feed/timelines';

interface FanoutOptions {
  config: SessionsConfig;
  connections: SessionsConnections;
  logger: Logger;
}

/** Queues a fan-out job once (its id derives from the event, or from the job that chains it). */
const enqueuer = ({ config, connections }: FanoutOptions) => (job: FanoutJob, jobId: string) =>
  enqueueFanout(connections.fanoutQueue, job, jobId, config.FANOUT_ATTEMPTS);

/**
 * What the fan-out's jobs run on, built once per process and shared by its
 * consumers (which run an event's first batch themselves) and its BullMQ
 * worker (which runs the batches chained after it).
 */
export function fanoutDeps(
  options: FanoutOptions & {
    /** Fault injection for tests (see FanoutDeps.faultGate). */
    faultGate?: () => Promise<void>;
    /** The process's metrics: the fan-out lag (the worker process passes it; tests may). */
    registry?: Registry;
  },
): FanoutDeps {
  const { config, connections, logger } = options;
  return {
    prisma: connections.prisma,
    prepared: connections.prepared,
    timelines: timelinesFor(connections.timelineRedis, config),
    batch: config.FANOUT_BATCH,
    cap: config.TIMELINE_CAP,
    logger,
    backfills: new BackfillAnnouncer({ prisma: connections.prisma, redis: connections.redis, bus: connections.bus, namespace: config.BUS_NAMESPACE, logger }),
    enqueue: enqueuer(options),
    fanoutDone: options.registry ? fanoutLag(options.registry) : undefined,
    faultGate: options.faultGate,
  };
}

/** The BullMQ worker running the chained fan-out jobs: a batch of followers per job. */
export function startFanoutWorker(options: FanoutOptions & { deps: FanoutDeps; registry?: Registry }): Worker<FanoutJob, void> {
  const { config, logger, deps } = options;
  const settings = fanoutQueueSettings(config);
  const worker: Worker<FanoutJob, void> = createFanoutWorker(
    settings,
    // (No logger per job: a job logs nothing itself; a failure is logged with its job id by the queue worker.)
    (job, jobId) => runFanoutJob(deps, job, jobId),
    logger,
  );
  if (options.registry) observeQueueWorker(options.registry, worker, settings.name);
  // Earlier releases kept the last 5,000 completed jobs (enqueueFanout keeps none now): dropped once, so an erasure has none to read.
  void options.connections.fanoutQueue.clean(0, 0, 'completed').catch((err: unknown) => logger.warn({ err }, 'completed fan-out jobs of an earlier release not dropped'));
  return worker;
}

/**
 * The JetStream consumer of one stream (sessions, or graph changes); its
 * durable is `<FANOUT_CONSUMER>-<stream>`. It runs each event's work itself
 * (issue 41, item 3): an audience that fits one batch — nearly everyone's —
 * is written before the event is acknowledged, with no queue round trip; a
 * bigger one queues its next batch (chain) for the BullMQ worker, which
 * spreads a celebrity's fan-out over its workers. A failure naks the event
 * and JetStream delivers it again with backoff; the work is idempotent, and
 * the chained job's id derives from the event's, so a rerun forks nothing.
 */
export function startFanoutConsumer(options: FanoutOptions & { deps: FanoutDeps; stream: 'SESSIONS' | 'SOCIAL' }): Promise<RunningConsumer> {
  const { config, connections, logger, stream, deps } = options;
  // An event about an erased person (published before the deletion, delivered after) writes nothing; one that only removes entries still removes them.
  const handlers = skipErased(connections.prisma, fanoutHandlers((job, jobId) => runFanoutJob(deps, job, jobId)), logger, { letThrough: UNGUARDED_EVENTS });
  return startConsumer({ bus: connections.bus, stream, durable: `${config.FANOUT_CONSUMER}-${stream.toLowerCase()}`, logger, handlers, ackWaitMs: config.FANOUT_ACK_WAIT_MS });
}

export interface RunningFanout {
  /** Resolves once no job waits, runs or is delayed (tests and graceful checks). */
  idle(): Promise<boolean>;
  /** Stops the consumers and the worker; the queue is the connections' and closes with them. */
  stop(): Promise<void>;
}

/**
 * The fan-out machinery in-process, on connections of the caller's: both
 * consumers and the worker. The worker process runs the same pieces through
 * its definition (fanoutService); the sessions tests run them beside the API.
 */
export async function startFanout(options: FanoutOptions & { registry?: Registry }): Promise<RunningFanout> {
  const queue = options.connections.fanoutQueue;
  const deps = fanoutDeps(options);
  const worker = startFanoutWorker({ ...options, deps });
  const consumers = await Promise.all((['SESSIONS', 'SOCIAL'] as const).map((stream) => startFanoutConsumer({ ...options, deps, stream })));
  return {
    async idle() {
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
      return Object.values(counts).every((n) => n === 0);
    },
    async stop() {
      await Promise.all(consumers.map((c) => c.stop()));
      await worker.close();
    },
  };
}

/** `feed_fanout_lag_seconds`: from a session's creation to its last follower's timeline written. */
function fanoutLag(registry: Registry): (seconds: number) => void {
  const histogram = new Histogram({
    name: 'feed_fanout_lag_seconds',
    help: 'Time from a session being logged to its fan-out reaching the last follower',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  return (seconds) => histogram.observe(Math.max(0, seconds));
}
