import { startConsumer, type Logger, type RunningConsumer } from '@hoptrack/runtime';
import { observeQueueWorker } from '@hoptrack/runtime/queues';
import { Histogram, type Registry } from 'prom-client';
import type { Queue, Worker } from 'bullmq';
import type { SessionsConfig } from '../../config';
import type { SessionsConnections } from '../../connections';
import { runFanoutJob, type FanoutJob } from '../../feed/fanout';
import { createFanoutQueue, createFanoutWorker, enqueueFanout, fanoutHandlers, fanoutQueueSettings } from '../../feed/queue';
import { skipErased } from '../../domain/erasure';
import { Timelines } from '../../feed/timelines';

export interface RunningFanout {
  queue: Queue<FanoutJob>;
  /** Resolves once no job waits, runs or is delayed (tests and graceful checks). */
  idle(): Promise<boolean>;
  stop(): Promise<void>;
}

/**
 * The fan-out machinery: JetStream consumers (sessions and graph events)
 * turning events into BullMQ jobs, and the BullMQ worker running them. The
 * worker process runs it; tests run the same in-process.
 */
export async function startFanout(options: {
  config: SessionsConfig;
  connections: SessionsConnections;
  logger: Logger;
  /** Fault injection for tests (see FanoutDeps.faultGate). */
  faultGate?: () => Promise<void>;
  /** The process's metrics: fan-out lag and job durations (the worker process passes it; tests may). */
  registry?: Registry;
}): Promise<RunningFanout> {
  const { config, connections, logger } = options;
  const settings = fanoutQueueSettings(config);
  const queue = createFanoutQueue(settings);
  const add = (job: FanoutJob, jobId: string) => enqueueFanout(queue, job, jobId, settings.attempts);
  const deps = {
    prisma: connections.prisma,
    prepared: connections.prepared,
    timelines: new Timelines(connections.redis, config.BUS_NAMESPACE, config.TIMELINE_CAP),
    batch: config.FANOUT_BATCH,
    cap: config.TIMELINE_CAP,
    logger,
    enqueue: add,
    fanoutDone: options.registry ? fanoutLag(options.registry) : undefined,
    faultGate: options.faultGate,
  };
  const worker: Worker<FanoutJob, void> = createFanoutWorker(
    settings,
    // (No logger per job: a job logs nothing itself; a failure is logged with its job id by the queue worker.)
    (job, jobId) => runFanoutJob(deps, job, jobId),
    logger,
  );
  if (options.registry) observeQueueWorker(options.registry, worker, settings.name);
  // An event about an erased person (published before the deletion, delivered after) queues nothing.
  const handlers = skipErased(connections.prisma, fanoutHandlers(add), logger);
  const consumers: RunningConsumer[] = await Promise.all(
    (['SESSIONS', 'SOCIAL'] as const).map((stream) =>
      startConsumer({ bus: connections.bus, stream, durable: `${config.FANOUT_CONSUMER}-${stream.toLowerCase()}`, logger, handlers }),
    ),
  );
  return {
    queue,
    async idle() {
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
      return Object.values(counts).every((n) => n === 0);
    },
    async stop() {
      await Promise.all(consumers.map((c) => c.stop()));
      await worker.close();
      await queue.close();
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
