import type { Logger } from '@hoptrack/runtime';
import { bullConnection, createQueueWorker, queuePrefix, type QueueSettings } from '@hoptrack/runtime/queues';
import { Queue, type Worker } from 'bullmq';

export const GENERATOR_QUEUE = 'challenges-daily';
/** The one scheduler of the generator: upserting it from every copy of the service leaves one. */
const SCHEDULER_ID = 'daily-challenges';

export interface GeneratorJob {
  /** Epoch ms the job is about; absent: when it runs. */
  at?: number;
}

export function generatorQueueSettings(config: { REDIS_URL: string; BUS_NAMESPACE: string }): QueueSettings {
  return {
    redisUrl: config.REDIS_URL,
    name: GENERATOR_QUEUE,
    prefix: queuePrefix(config.BUS_NAMESPACE),
    attempts: 5,
    concurrency: 1,
    lockMs: 60_000,
    stalledIntervalMs: 30_000,
  };
}

export function createGeneratorQueue(settings: QueueSettings): Queue<GeneratorJob> {
  return new Queue<GeneratorJob>(settings.name, { connection: bullConnection(settings.redisUrl), prefix: settings.prefix });
}

/**
 * The repeatable job (BullMQ's job scheduler): every `everyMs`, and once at
 * once, so a fresh deployment has today's challenges before the first hour.
 */
export async function scheduleGenerator(queue: Queue<GeneratorJob>, everyMs: number): Promise<void> {
  await queue.upsertJobScheduler(SCHEDULER_ID, { every: everyMs, immediately: true }, { name: 'generate', data: {} });
}

export function startGeneratorWorker(settings: QueueSettings, generate: (at: Date) => Promise<unknown>, logger: Logger): Worker<GeneratorJob, void> {
  return createQueueWorker<GeneratorJob, void>(settings, async (job) => {
    await generate(job.data.at ? new Date(job.data.at) : new Date());
  }, logger);
}
