import type { Logger } from '@hoptrack/runtime';
import { bullConnection as connection, createQueueWorker, type QueueSettings } from '@hoptrack/runtime/queues';
import { Queue, type Worker } from 'bullmq';

export const THUMBNAIL_JOB = 'thumbnail';
export interface ThumbnailJob {
  photoId: string;
}

export type { QueueSettings } from '@hoptrack/runtime/queues';

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
  return createQueueWorker<ThumbnailJob, string>(settings, (job) => process(job.data.photoId), logger);
}
