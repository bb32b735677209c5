import type { EventEnvelope } from '@hoptrack/proto';
import { anyErased, publishNow, type Bus, type Logger } from '@hoptrack/runtime';
import type { Redis } from 'ioredis';
import type { PrismaClient } from '../db';
import { feedRepository } from '../repositories/feed.repository';
import { fanoutJobsOf } from './queue';

/** How long a copy's mark waits for the read model's commit: far past any lag the consumers' alerts allow. */
const MARK_TTL_SECONDS = 3600;

export interface BackfillAnnouncerDeps {
  prisma: PrismaClient;
  /** REDIS_URL's Redis: the API process and the fan-out worker both reach it. */
  redis: Redis;
  bus: Bus;
  namespace: string;
  logger: Logger;
}

/**
 * The live `feed` push of a backfill (session.timeline.backfilled.v1, issue
 * 40 item 8), sent once the person's feed would show what the fan-out
 * copied. Two things must have happened, done by two consumers of the same
 * graph event in two processes, in either order: the copy onto the timeline
 * (the fan-out) and the graph read model's commit (the feed's read re-checks
 * visibility against it). Each writes its half, then looks for the other's
 * (issue 41, item 4; it replaces a job that looked up to ten times, 250 ms
 * apart): the fan-out marks the copy in Redis, then asks Postgres whether
 * the feed shows the author; the read model commits, then looks for the
 * mark. Whichever comes second sees the first — each writes before it
 * reads —, so one at least announces; the msg id is the backfill's, so two
 * announce once. The mark names no one (its key is the event's id): an
 * erasure has nothing to find in it, and it expires.
 */
export class BackfillAnnouncer {
  constructor(private readonly deps: BackfillAnnouncerDeps) {}

  private key(backfillId: string): string {
    return `${this.deps.namespace}:backfill-copied:${backfillId}`;
  }

  /** The fan-out's half: the copy is on the timeline and copied something. */
  async copied(backfillId: string, followerId: string, authorId: string): Promise<void> {
    await this.deps.redis.set(this.key(backfillId), '1', 'EX', MARK_TTL_SECONDS);
    if (await feedRepository.anyShownInFeed(this.deps.prisma, followerId, authorId)) await this.announce(backfillId, followerId, authorId);
  }

  /**
   * The read model's half, after its commit (the audience's afterGraphCommit).
   * Never throws: the commit stands, and a lost push costs only the refetch
   * the web makes at its next open.
   */
  committed(events: readonly EventEnvelope[]): void {
    void this.afterCommit(events).catch((err: unknown) => this.deps.logger.warn({ err }, 'backfill announcement after the graph commit failed'));
  }

  private async afterCommit(events: readonly EventEnvelope[]): Promise<void> {
    for (const event of events) {
      for (const { job, jobId } of fanoutJobsOf(event)) {
        if (job.kind !== 'backfill') continue;
        if ((await this.deps.redis.exists(this.key(jobId))) === 1) await this.announce(jobId, job.followerId, job.authorId);
      }
    }
  }

  /** The push itself, once per backfill (its msg id). */
  async announce(backfillId: string, followerId: string, authorId: string): Promise<void> {
    // An erased person is named on the bus no more (a backfill queued before the deletion).
    if (await anyErased(this.deps.prisma, [followerId, authorId])) return;
    await publishNow(this.deps.bus, 'session.timeline.backfilled.v1', { userId: followerId, authorId }, `backfilled:${backfillId}`);
  }
}
