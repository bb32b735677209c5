import type { FeedFilter, FeedSession } from '@hoptrack/proto';
import { decodeTimeCursor, encodeTimeCursor, isDependencyUnavailable } from '@hoptrack/runtime';
import type { PrismaClient } from '../db';
import type { CardRenderer } from '../cards/renderer';
import { feedRepository, type FeedPlan } from '../repositories/feed.repository';
import type { TimelineEntry, Timelines } from './timelines';

export interface Cursor {
  score: number;
  sessionId: string;
}

export function encodeCursor(entry: Cursor): string {
  return encodeTimeCursor({ at: entry.score, id: entry.sessionId });
}

export function decodeCursor(text: string | undefined): Cursor | null {
  const cursor = decodeTimeCursor(text);
  return cursor && { score: cursor.at, sessionId: cursor.id };
}

/**
 * The home feed. 'all' is the viewer's own sessions and those of everyone
 * they follow (friends, and public people they sent a request to) that they
 * may see; 'following' is the same without their own; 'mine' only their own.
 * The timeline in Redis gives the ids, the card read model the cards; the
 * page's one statement re-checks visibility (CardRenderer), so a late fan-out
 * or a privacy change never shows what it should not.
 */
export class Feed {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly timelines: Timelines,
    private readonly cap: number,
    private readonly cards: CardRenderer,
  ) {}

  /**
   * A page of the feed: from the viewer's Redis timeline, or straight from
   * Postgres when Redis cannot be reached — the same sessions in the same
   * order, only slower, so a Redis outage degrades the feed instead of breaking it.
   */
  async read(viewerId: string, filter: FeedFilter, cursor: Cursor | null, limit: number): Promise<{ sessions: FeedSession[]; next: string | null }> {
    try {
      return await this.page(viewerId, filter, cursor, limit, filter !== 'mine');
    } catch (err) {
      if (filter === 'mine' || !isDependencyUnavailable(err)) throw err;
      return this.page(viewerId, filter, cursor, limit, false);
    }
  }

  private async page(viewerId: string, filter: FeedFilter, cursor: Cursor | null, limit: number, useRedis: boolean): Promise<{ sessions: FeedSession[]; next: string | null }> {
    const keep = filter === 'following' ? (e: TimelineEntry) => e.authorId !== viewerId : () => true;
    const shown: FeedSession[] = [];
    let after = cursor;
    let fromRedis = useRedis;
    // The first range is asked for together with the completeness check (one round trip with
    // auto-pipelining), and thrown away when the timeline must be rebuilt first: someone back
    // after the activity window, or a timeline evicted.
    let first: Promise<TimelineEntry[]> | null = null;
    if (fromRedis) {
      first = this.timelines.page(viewerId, after, limit, keep);
      first.catch(() => undefined); // awaited below, or dropped: never an unhandled rejection
      if (!(await this.timelines.touch(viewerId))) {
        first = null;
        await this.ensureTimeline(viewerId);
      }
    }
    while (shown.length < limit) {
      const want = limit - shown.length;
      const entries = first ? await first : fromRedis ? await this.timelines.page(viewerId, after, want, keep) : await this.fromPostgres(viewerId, filter, after, want);
      first = null;
      if (entries.length === 0) {
        // Past the end of a capped timeline, older sessions still exist in Postgres.
        if (fromRedis && (await this.timelines.size(viewerId)) >= this.cap) {
          fromRedis = false;
          continue;
        }
        break;
      }
      // Entries the viewer may no longer see (deleted, hidden, muted since) drop out here; the loop reads on.
      shown.push(...(await this.cards.render(viewerId, entries.map((e) => e.sessionId), { feed: true })));
      const last = entries[entries.length - 1] as TimelineEntry;
      after = { score: last.score, sessionId: last.sessionId };
      if (entries.length < want && !fromRedis) break;
    }
    const page = shown.slice(0, limit);
    const last = page[page.length - 1];
    const hasMore = page.length === limit && last !== undefined;
    return { sessions: page, next: hasMore ? encodeCursor({ score: Date.parse(last.createdAt), sessionId: last.id }) : null };
  }

  /**
   * Rebuilds a missing timeline from Postgres: the newest `cap` sessions the
   * viewer would have been sent, read by the feed's own statement (the one
   * copy of its audience rules), so someone back sees the feed they left.
   */
  async ensureTimeline(viewerId: string): Promise<void> {
    if (await this.timelines.isComplete(viewerId)) return;
    // A rebuild reads a cap's worth: per author, not down everyone's sessions (FeedPlan).
    await this.timelines.rebuild(viewerId, () => this.fromPostgres(viewerId, 'all', null, this.cap, 'per-author'));
  }

  /** The same feed straight from Postgres, newest first after the cursor. */
  async fromPostgres(viewerId: string, filter: FeedFilter, cursor: Cursor | null, limit: number, plan?: FeedPlan): Promise<TimelineEntry[]> {
    const rows = await feedRepository.listEntries(this.prisma, viewerId, filter, cursor, limit, plan);
    return rows.map((r) => ({ sessionId: r.id, authorId: r.user_id, score: r.created_at.getTime() }));
  }
}
