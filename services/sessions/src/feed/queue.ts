import type { EventEnvelope, EventType } from '@hoptrack/proto';
import type { EventHandlers, Logger } from '@hoptrack/runtime';
import { bullConnection, createQueueWorker, queuePrefix, type QueueSettings } from '@hoptrack/runtime/queues';
import { Queue, type Worker } from 'bullmq';
import type { SessionsConfig } from '../config';
import type { FanoutJob } from './fanout';

export type FanoutQueueSettings = QueueSettings;

/** The fan-out queue's settings (the worker runs it; the API's erasure sweeps it). */
export function fanoutQueueSettings(config: SessionsConfig): FanoutQueueSettings {
  return {
    redisUrl: config.REDIS_URL,
    name: config.FANOUT_QUEUE,
    prefix: queuePrefix(config.BUS_NAMESPACE),
    attempts: config.FANOUT_ATTEMPTS,
    concurrency: config.FANOUT_CONCURRENCY,
    lockMs: config.FANOUT_LOCK_MS,
    stalledIntervalMs: config.FANOUT_STALLED_INTERVAL_MS,
  };
}

export function createFanoutQueue(settings: FanoutQueueSettings): Queue<FanoutJob> {
  return new Queue<FanoutJob>(settings.name, { connection: bullConnection(settings.redisUrl), prefix: settings.prefix });
}

/** Adds a job once: BullMQ ignores a job id it already holds, so a redelivered event queues nothing new. */
export async function enqueueFanout(queue: Queue<FanoutJob>, job: FanoutJob, jobId: string, attempts: number, delayMs?: number): Promise<void> {
  await queue.add(job.kind, job, {
    jobId,
    ...(delayMs ? { delay: delayMs } : {}),
    attempts,
    backoff: { type: 'exponential', delay: 500 },
    removeOnComplete: { count: 5000 },
    removeOnFail: { count: 5000 },
  });
}

export function createFanoutWorker(settings: FanoutQueueSettings, run: (job: FanoutJob, jobId: string) => Promise<void>, logger: Logger): Worker<FanoutJob, void> {
  return createQueueWorker<FanoutJob, void>(settings, (job) => run(job.data, job.id ?? job.name), logger);
}

/**
 * Which timeline work each event means, handed to `run` (the consumer runs
 * it at once; the chained batches it queues go to BullMQ). Job ids derive
 * from the event id (BullMQ refuses ':' in ids), and a chained batch's from
 * its job's, so a redelivered event queues nothing twice.
 */
export function fanoutHandlers(run: (job: FanoutJob, jobId: string) => Promise<void>): EventHandlers {
  const on = <T extends EventType>(jobs: (event: EventEnvelope<T>) => FanoutJob[]) => async (event: EventEnvelope<T>) => {
    const list = jobs(event);
    await Promise.all(list.map((job, i) => run(job, `${event.id}-${i}`)));
  };
  return {
    'session.created.v1': on<'session.created.v1'>(({ data }) => [
      { kind: 'fanout', sessionId: data.sessionId, authorId: data.userId, score: new Date(data.createdAt).getTime(), after: null },
    ]),
    'session.deleted.v1': on<'session.deleted.v1'>(({ data }) => [{ kind: 'retract', sessionId: data.sessionId, authorId: data.userId, after: null }]),
    'social.friendship.requested.v1': on<'social.friendship.requested.v1'>(({ data }) => [
      { kind: 'backfill', followerId: data.requesterId, authorId: data.recipientId, asFriend: false },
    ]),
    'social.friendship.accepted.v1': on<'social.friendship.accepted.v1'>(({ data }) => [
      { kind: 'backfill', followerId: data.requesterId, authorId: data.recipientId, asFriend: true },
      { kind: 'backfill', followerId: data.recipientId, authorId: data.requesterId, asFriend: true },
    ]),
    'social.friendship.rejected.v1': on<'social.friendship.rejected.v1'>(({ data }) => [
      { kind: 'unlink', userId: data.requesterId, otherId: data.recipientId, bothWays: true },
    ]),
    'social.friendship.removed.v1': on<'social.friendship.removed.v1'>(({ data }) => [
      { kind: 'unlink', userId: data.userId, otherId: data.friendId, bothWays: true },
    ]),
    'social.user.blocked.v1': on<'social.user.blocked.v1'>(({ data }) => [
      { kind: 'unlink', userId: data.blockerId, otherId: data.blockedId, bothWays: true },
    ]),
    'social.friend.muted.v1': on<'social.friend.muted.v1'>(({ data }) => [{ kind: 'unlink', userId: data.userId, otherId: data.friendId, bothWays: false }]),
    'social.friend.unmuted.v1': on<'social.friend.unmuted.v1'>(({ data }) => [
      { kind: 'backfill', followerId: data.userId, authorId: data.friendId, asFriend: true, unmuted: true },
    ]),
  };
}
