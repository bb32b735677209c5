import { anyErased, type Logger } from '@hoptrack/runtime';
import type { PreparedSql, PrismaClient } from '../db';
import { feedRepository } from '../repositories/feed.repository';
import type { BackfillAnnouncer } from './backfill-announce';
import type { TimelineEntry, Timelines } from './timelines';

/** The jobs of the fan-out queue. Every one is idempotent: run twice, the timelines end the same. */
export type FanoutJob =
  /** Put a new session on its author's timeline and on a batch of followers' (then chain the next batch). */
  | { kind: 'fanout'; sessionId: string; authorId: string; score: number; after: string | null }
  /** Take a deleted session off its author's and followers' timelines, batch by batch. */
  | { kind: 'retract'; sessionId: string; authorId: string; after: string | null }
  /** Take each one's sessions off the other's timeline (unfriend, block, rejected request); one way for a mute. */
  | { kind: 'unlink'; userId: string; otherId: string; bothWays: boolean }
  /** Copy an author's recent sessions onto a follower's timeline (new friendship or follow, unmute). */
  | { kind: 'backfill'; followerId: string; authorId: string; asFriend: boolean; unmuted?: boolean }
  /**
   * Queued by the version before issue 41's item 4 (a look for the read model, again and again): a job
   * still queued at the upgrade announces at once. Nothing queues it any more.
   */
  | { kind: 'announce'; followerId: string; authorId: string; round: number };

export interface FanoutDeps {
  prisma: PrismaClient;
  /** The fan-out's hot statement goes by name (planned once per connection), not through Prisma. */
  prepared: PreparedSql;
  timelines: Timelines;
  batch: number;
  cap: number;
  logger: Logger;
  /** Where a finished backfill is announced, once the read model agrees (session.timeline.backfilled.v1: the person's live `feed` push). */
  backfills: Pick<BackfillAnnouncer, 'copied' | 'announce'>;
  /** Queues the next batch of a chained job. */
  enqueue(job: FanoutJob, jobId: string): Promise<void>;
  /** Told, in seconds, how long after its creation a session reached its last follower's timeline. */
  fanoutDone?(lagSeconds: number): void;
  /**
   * Fault injection for tests only (FANOUT_FAULT_GATE_FILE; unset in production): when set, a batch of
   * two followers or more writes its first follower's timeline, awaits this, then writes the rest, so a
   * test can kill the worker between two timeline writes of one batch.
   */
  faultGate?(): Promise<void>;
}

/**
 * Runs one job. A big author's fan-out is a chain of jobs of `batch`
 * followers each, so one celebrity never holds a worker for long and other
 * people's sessions interleave. The chained job's id is derived from its
 * position, so a retried batch does not fork the chain.
 */
export async function runFanoutJob(deps: FanoutDeps, job: FanoutJob, jobId: string): Promise<void> {
  switch (job.kind) {
    case 'fanout': {
      // One statement: whether the session still exists (deleted before its fan-out ran: nothing to do) and this batch's audience.
      const batch = await liveAudience(deps, job);
      if (!batch) return;
      const entry: TimelineEntry = { sessionId: job.sessionId, authorId: job.authorId, score: job.score };
      const followers = batch.followers;
      // The next batch is queued before this one's writes, so another worker reads its audience
      // while these timelines are written (a chained job id: a retry of this batch forks nothing).
      const last = !(await chain(deps, job, jobId, followers));
      // The author's own timeline goes with the first batch's writes, in the same call.
      const author = job.after === null ? [job.authorId] : [];
      const split = deps.faultGate ? 1 : followers.length;
      await deps.timelines.add([...author, ...followers.slice(0, split)], entry);
      if (followers.length > 1) await deps.faultGate?.();
      await deps.timelines.add(followers.slice(split), entry);
      if (last) deps.fanoutDone?.((Date.now() - job.score) / 1000);
      return;
    }
    case 'retract': {
      const entry = { sessionId: job.sessionId, authorId: job.authorId };
      if (job.after === null) await deps.timelines.remove([job.authorId], entry);
      const followers = await everyFollower(deps, job.authorId, job.after);
      await chain(deps, job, jobId, followers);
      await deps.timelines.remove(followers, entry);
      return;
    }
    case 'unlink':
      await deps.timelines.removeAuthor(job.userId, job.otherId);
      if (job.bothWays) await deps.timelines.removeAuthor(job.otherId, job.userId);
      return;
    case 'backfill': {
      // Nothing is written for an erased person (a job queued before their deletion): not their timeline, not their sessions.
      if (await anyErased(deps.prisma, [job.followerId, job.authorId])) return;
      // A new friend may see a private author's sessions, and an unmute means unmuted: the event says
      // so even when the read model (another consumer of the same event) has not caught up yet.
      const scope = { asFriend: job.asFriend, unmuted: job.unmuted ?? false };
      const rows = await feedRepository.listForBackfill(deps.prisma, job.followerId, job.authorId, scope, deps.cap);
      await deps.timelines.addMany(
        job.followerId,
        rows.map((r) => ({ sessionId: r.id, authorId: job.authorId, score: r.created_at.getTime() })),
      );
      // Nothing copied, nothing to refetch; else the person's open tabs are told (the live `feed` push), once their feed shows it.
      if (rows.length > 0) await deps.backfills.copied(jobId, job.followerId, job.authorId);
      return;
    }
    case 'announce':
      await deps.backfills.announce(jobId.split('_announce_')[0] ?? jobId, job.followerId, job.authorId);
      return;
  }
}

/** Queues the next batch when this one was full; false when this was the last. */
async function chain(deps: FanoutDeps, job: Extract<FanoutJob, { after: string | null }>, jobId: string, batch: string[]): Promise<boolean> {
  const last = batch[batch.length - 1];
  if (batch.length < deps.batch || !last) return false;
  const root = jobId.split('_after_')[0] ?? jobId;
  await deps.enqueue({ ...job, after: last }, `${root}_after_${last}`);
  return true;
}

/** The batch of a fan-out job in one round trip: null when the session is gone, else this batch's followers. */
async function liveAudience(deps: FanoutDeps, job: Extract<FanoutJob, { kind: 'fanout' }>): Promise<{ followers: string[] } | null> {
  const { live, followers } = await feedRepository.liveAudience(deps.prepared, job.sessionId, job.authorId, job.after, deps.batch);
  return live ? { followers } : null;
}

/** Every follower, whatever they may see now: a removal must reach them all. */
function everyFollower(deps: FanoutDeps, authorId: string, after: string | null): Promise<string[]> {
  return feedRepository.listFollowers(deps.prisma, authorId, after, deps.batch);
}
