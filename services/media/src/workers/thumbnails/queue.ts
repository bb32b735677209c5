import type { Logger } from '@hoptrack/runtime';
import { bullConnection as connection, createQueueWorker, type QueueSettings } from '@hoptrack/runtime/queues';
import { DelayedError, Queue, type Worker } from 'bullmq';
import { StorageUnavailable } from '../../storage/outage';

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

/** Waits between the tries of a job that met the object store down: doubling from 1 s, at most 30 s. */
export function storageRetryDelayMs(triesStarted: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, triesStarted - 1));
}

/**
 * A job that meets the object store down (StorageUnavailable) spends none of
 * its attempts: it is put back as delayed and runs again after
 * storageRetryDelayMs, for as long as the outage lasts, so every photo is
 * rendered once the store is back. Its attempts (THUMBNAIL_ATTEMPTS, with
 * their own backoff) are for the other faults: a database that is down, a bug.
 */
export function createThumbnailWorker(
  settings: QueueSettings,
  process: (photoId: string) => Promise<string>,
  logger: Logger,
): Worker<ThumbnailJob, string> {
  return createQueueWorker<ThumbnailJob, string>(
    settings,
    async (job) => {
      try {
        return await process(job.data.photoId);
      } catch (err) {
        if (!(err instanceof StorageUnavailable) || !job.token) throw err;
        const delayMs = storageRetryDelayMs(job.attemptsStarted);
        logger.warn({ queue: settings.name, jobId: job.id, delayMs, err }, 'object storage unavailable; thumbnail job delayed');
        await job.moveToDelayed(Date.now() + delayMs, job.token);
        throw new DelayedError();
      }
    },
    logger,
  );
}
