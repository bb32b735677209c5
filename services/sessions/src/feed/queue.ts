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

/**
 * What the queue keeps of its past: nothing of a completed job, and the
 * shortest event log BullMQ allows (nobody reads it: no QueueEvents). Both
 * name people (a job's data and id, a chained batch's follower), so an
 * erasure sweeps whatever is kept (SessionsErasure.sweepQueue): with 5,000
 * completed jobs and 10,000 events kept, that sweep read them all twice a
 * person, 1.4 CPU-s of Redis and 1.6 of sessions on the community set
 * (issue 41). Failed jobs stay (the last 5,000), for operators.
 */
const EVENTS_KEPT = 100;

export function createFanoutQueue(settings: FanoutQueueSettings): Queue<FanoutJob> {
  return new Queue<FanoutJob>(settings.name, { connection: bullConnection(settings.redisUrl), prefix: settings.prefix, streams: { events: { maxLen: EVENTS_KEPT } } });
}

/**
 * Adds a job once: BullMQ ignores a job id it holds, so a redelivered event
 * queues nothing new while its job waits or runs; once done the job is gone,
 * and a later redelivery runs it again — harmless, every write is idempotent.
 */
export async function enqueueFanout(queue: Queue<FanoutJob>, job: FanoutJob, jobId: string, attempts: number): Promise<void> {
  await queue.add(job.kind, job, fanoutJobOptions(jobId, attempts));
}

/**
 * A fan-out job's options, wherever one is queued (the bench's drains too): a
 * completed job is not kept, since the erasure's queue sweep reads every job
 * kept (a bench that kept 5,000 made an erasure cost 3 CPU-s, 2026-12-04);
 * failed ones stay for operators, 5,000 at most.
 */
export const fanoutJobOptions = (jobId: string, attempts: number) => ({
  jobId,
  attempts,
  backoff: { type: 'exponential' as const, delay: 500 },
  removeOnComplete: true,
  removeOnFail: { count: 5000 },
});

export function createFanoutWorker(settings: FanoutQueueSettings, run: (job: FanoutJob, jobId: string) => Promise<void>, logger: Logger): Worker<FanoutJob, void> {
  return createQueueWorker<FanoutJob, void>(settings, (job) => run(job.data, job.id ?? job.name), logger);
}

type JobsOf = { [T in EventType]?: (event: EventEnvelope<T>) => FanoutJob[] };

/** Which timeline work each event means. */
const FANOUT_JOBS: JobsOf = {
  'session.created.v1': ({ data }) => [{ kind: 'fanout', sessionId: data.sessionId, authorId: data.userId, score: new Date(data.createdAt).getTime(), after: null }],
  'session.deleted.v1': ({ data }) => [{ kind: 'retract', sessionId: data.sessionId, authorId: data.userId, after: null }],
  'social.friendship.requested.v1': ({ data }) => [{ kind: 'backfill', followerId: data.requesterId, authorId: data.recipientId, asFriend: false }],
  'social.friendship.accepted.v1': ({ data }) => [
    { kind: 'backfill', followerId: data.requesterId, authorId: data.recipientId, asFriend: true },
    { kind: 'backfill', followerId: data.recipientId, authorId: data.requesterId, asFriend: true },
  ],
  'social.friendship.rejected.v1': ({ data }) => [{ kind: 'unlink', userId: data.requesterId, otherId: data.recipientId, bothWays: true }],
  'social.friendship.removed.v1': ({ data }) => [{ kind: 'unlink', userId: data.userId, otherId: data.friendId, bothWays: true }],
  'social.user.blocked.v1': ({ data }) => [{ kind: 'unlink', userId: data.blockerId, otherId: data.blockedId, bothWays: true }],
  'social.friend.muted.v1': ({ data }) => [{ kind: 'unlink', userId: data.userId, otherId: data.friendId, bothWays: false }],
  'social.friend.unmuted.v1': ({ data }) => [{ kind: 'backfill', followerId: data.userId, authorId: data.friendId, asFriend: true, unmuted: true }],
};

/**
 * The events whose work only takes entries out (unlink, retract): run even
 * when they name an erased person, because a removal writes nothing of theirs,
 * and the erasure sweeps only current followers' timelines — an unfollow the
 * graph read model applied before the erasure, and the fan-out after, is
 * cleaned up by this event (SessionsErasure).
 */
export const REMOVAL_EVENTS: ReadonlySet<EventType> = new Set<EventType>([
  'session.deleted.v1',
  'social.friendship.rejected.v1',
  'social.friendship.removed.v1',
  'social.user.blocked.v1',
  'social.friend.muted.v1',
]);
/** The job kinds that only remove (what REMOVAL_EVENTS' jobs must be: the erasure test checks). */
export const REMOVAL_KINDS: ReadonlySet<FanoutJob['kind']> = new Set<FanoutJob['kind']>(['unlink', 'retract']);

/**
 * The events the fan-out consumer runs without asking whether they name an
 * erased person (skipErased's `letThrough`): the removals, and
 * session.created.v1, whose job's one statement reads the session and the
 * author's followers before writing anything — an erasure deletes both in
 * its commit, so an erased author's late event writes nothing, and the
 * guard's query per create is saved (issue 41: commits per create).
 */
export const UNGUARDED_EVENTS: ReadonlySet<EventType> = new Set<EventType>([...REMOVAL_EVENTS, 'session.created.v1']);

/**
 * The fan-out work of one event, each with its id. Ids derive from the event
 * id (BullMQ refuses ':' in ids), and a chained batch's from its job's, so a
 * redelivered event queues nothing twice; the graph's read model finds a
 * backfill's announcement by the same id (backfill-announce.ts).
 */
export function fanoutJobsOf(event: EventEnvelope): Array<{ job: FanoutJob; jobId: string }> {
  const jobs = (FANOUT_JOBS[event.type] as ((e: EventEnvelope) => FanoutJob[]) | undefined)?.(event) ?? [];
  return jobs.map((job, i) => ({ job, jobId: `${event.id}-${i}` }));
}

/** The consumer's handlers: each event's work handed to `run` (the consumer runs it at once; the chained batches it queues go to BullMQ). */
export function fanoutHandlers(run: (job: FanoutJob, jobId: string) => Promise<void>): EventHandlers {
  const handlers: Record<string, (event: EventEnvelope) => Promise<void>> = {};
  for (const type of Object.keys(FANOUT_JOBS)) {
    handlers[type] = async (event) => {
      await Promise.all(fanoutJobsOf(event).map(({ job, jobId }) => run(job, jobId)));
    };
  }
  return handlers as EventHandlers;
}
