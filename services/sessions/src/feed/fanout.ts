import { anyErased, audienceSql, identifier, queryRows, sql, uuid, type Logger } from '@hoptrack/runtime';
import type { PreparedSql, PrismaClient } from '../db';
import { canSeeSession, notBlockedWith, notMutedAuthor, SESSION_AUTHOR } from '../domain/visibility';
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
  | { kind: 'backfill'; followerId: string; authorId: string; asFriend: boolean; unmuted?: boolean };

export interface FanoutDeps {
  prisma: PrismaClient;
  /** The fan-out's hot statement goes by name (planned once per connection), not through Prisma. */
  prepared: PreparedSql;
  timelines: Timelines;
  batch: number;
  cap: number;
  logger: Logger;
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
      const follower = uuid(job.followerId);
      const rows = await queryRows<Array<{ id: string; created_at: Date }>>(
        deps.prisma,
        sql`SELECT s.id, s.created_at FROM beer_sessions s
         WHERE s.user_id = ${uuid(job.authorId)} AND ${job.asFriend ? notBlockedWith(follower, SESSION_AUTHOR) : canSeeSession(follower)} AND ${job.unmuted ? sql`true` : notMutedAuthor(follower)}
         ORDER BY s.created_at DESC, s.id DESC LIMIT ${deps.cap}`,
      );
      await deps.timelines.addMany(
        job.followerId,
        rows.map((r) => ({ sessionId: r.id, authorId: job.authorId, score: r.created_at.getTime() })),
      );
      return;
    }
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

/**
 * The batch of a fan-out job in one round trip: null when the session is
 * gone, else the followers allowed to see the author's sessions who did not
 * mute them, in id order after `after`. A named statement: Postgres plans it
 * once per connection, not on every job (planning cost more than running it).
 */
async function liveAudience(deps: FanoutDeps, job: Extract<FanoutJob, { kind: 'fanout' }>): Promise<{ followers: string[] } | null> {
  // `after` is a parameter even when null (the first batch): one text for every batch, as a named statement needs.
  const [author, follower] = [uuid(job.authorId), identifier('f.follower_id')];
  const [row] = await deps.prepared.query<{ live: boolean; followers: string[] }>(
    'fanout_live_audience',
    sql`SELECT EXISTS (SELECT 1 FROM beer_sessions s WHERE s.id = ${uuid(job.sessionId)}) AS live,
       ARRAY(
         SELECT f.follower_id::text FROM follows f
         WHERE f.followee_id = ${author} AND (${job.after}::uuid IS NULL OR f.follower_id > ${job.after}::uuid)
           AND ${audienceSql.canSee(follower, author)}
           AND NOT ${audienceSql.muted(follower, author)}
         ORDER BY f.follower_id LIMIT ${deps.batch}
       ) AS followers`,
  );
  return row?.live ? { followers: row.followers } : null;
}

/** Every follower, whatever they may see now: a removal must reach them all. */
function everyFollower(deps: FanoutDeps, authorId: string, after: string | null): Promise<string[]> {
  return deps.prisma
    .$queryRawUnsafe<Array<{ follower_id: string }>>(
      `SELECT follower_id FROM follows WHERE followee_id = $1::uuid AND ($2::uuid IS NULL OR follower_id > $2::uuid)
       ORDER BY follower_id LIMIT $3`,
      authorId,
      after,
      deps.batch,
    )
    .then((rows) => rows.map((r) => r.follower_id));
}
