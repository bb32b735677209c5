import type { Logger } from '@hoptrack/runtime';
import { bullConnection, createQueueWorker, queuePrefix, type QueueSettings } from '@hoptrack/runtime/queues';
import { Queue, type Worker } from 'bullmq';
import type { DigestJob } from './digests';

export const MAIL_QUEUE = 'notification-mail';

export function mailQueueSettings(config: { REDIS_URL: string; BUS_NAMESPACE: string }): QueueSettings {
  return {
    redisUrl: config.REDIS_URL,
    name: MAIL_QUEUE,
    prefix: queuePrefix(config.BUS_NAMESPACE),
    attempts: 5,
    // SMTP is one connection's work; two mails at a time per process is plenty.
    concurrency: 2,
    lockMs: 60_000,
    stalledIntervalMs: 30_000,
  };
}

export function createMailQueue(settings: QueueSettings): Queue<DigestJob> {
  return new Queue<DigestJob>(settings.name, { connection: bullConnection(settings.redisUrl), prefix: settings.prefix });
}

export function startMailWorker(settings: QueueSettings, send: (userId: string) => Promise<unknown>, logger: Logger): Worker<DigestJob, void> {
  return createQueueWorker<DigestJob, void>(settings, async (job) => {
    await send(job.data.userId);
  }, logger);
}
