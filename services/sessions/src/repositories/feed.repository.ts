import type { FeedFilter } from '@hoptrack/proto';
import { audienceSql, identifier, joinSql, queryRows, sql, uuid } from '@hoptrack/runtime';
import type { Db, PreparedSql } from '../db';
import { canSeeSession, notBlockedWith, notMutedAuthor, SESSION_AUTHOR } from '../domain/visibility';

/** A feed entry as Postgres has it: the session, its author and its creation time. */
export interface FeedRow {
  id: string;
  user_id: string;
  created_at: Date;
}

/**
 * How the feed's statement walks the sessions. 'newest-first': down the
 * creation-time index, keeping what the viewer may see, until the page is
 * full; cheap for a page, where a few hundred rows fill it. 'per-author':
 * each followed author's newest sessions (their (user_id, created_at)
 * index), merged; for a rebuild's 800 newest among 100 friends, where
 * walking everyone's sessions reads most of a year of them (0.3–2 s on the
 * 100,000-person set, docs/benchmarks.md) and this reads a few thousand.
 */
export type FeedPlan = 'newest-first' | 'per-author';

/** Whose sessions a back-fill copies: a new friend may see a private author's; an unmute brings back a muted author's. */
export interface BackfillScope {
  asFriend: boolean;
  unmuted: boolean;
}

/**
 * The feed's reads of Postgres: its pages when Redis cannot serve them (and
 * timelines' rebuilds), and what the fan-out worker writes into timelines.
 */
export const feedRepository = {
  /**
   * The viewer's feed, newest first after the cursor. 'all': their own
   * sessions and those of everyone they follow that they may see and did not
   * mute; 'following': the same without their own; 'mine': only their own.
   * `cursor`: the page starts strictly after this session (its creation time in ms, its id).
   */
  listEntries(
    db: Db,
    viewerId: string,
    filter: FeedFilter,
    cursor: { score: number; sessionId: string } | null,
    limit: number,
    plan: FeedPlan = 'newest-first',
  ): Promise<FeedRow[]> {
    const viewer = uuid(viewerId);
    const own = sql`s.user_id = ${viewer}`;
    const scope =
      filter === 'mine'
        ? own
        : sql`(${filter === 'all' ? sql`${own} OR ` : sql``}${audienceSql.follows(viewer, SESSION_AUTHOR)})
           AND ${canSeeSession(viewer)} AND (${own} OR ${notMutedAuthor(viewer)})`;
    const where = joinSql([scope, ...(cursor ? [sql`(s.created_at, s.id) < (${new Date(cursor.score)}::timestamptz, ${uuid(cursor.sessionId)})`] : [])], ' AND ');
    if (plan === 'per-author' && filter !== 'mine') {
      // The same rows: every row `where` keeps is the viewer's or a followed author's, and the newest `limit` of all
      // are among each author's newest `limit` (the same condition inside, so nothing else changes).
      const authors = sql`SELECT audience_a."followee_id" AS id FROM "follows" audience_a WHERE audience_a."follower_id" = ${viewer}${filter === 'all' ? sql` UNION ALL SELECT ${viewer}` : sql``}`;
      return queryRows<FeedRow[]>(
        db,
        sql`SELECT x.id, x.user_id, x.created_at FROM (${authors}) authors
         CROSS JOIN LATERAL (
           SELECT s.id, s.user_id, s.created_at FROM beer_sessions s
           WHERE s.user_id = authors.id AND ${where}
           ORDER BY s.created_at DESC, s.id DESC LIMIT ${limit}
         ) x
         ORDER BY x.created_at DESC, x.id DESC LIMIT ${limit}`,
      );
    }
    return queryRows<FeedRow[]>(
      db,
      sql`SELECT s.id, s.user_id, s.created_at FROM beer_sessions s
       WHERE ${where}
       ORDER BY s.created_at DESC, s.id DESC LIMIT ${limit}`,
    );
  },

  /**
   * The author's newest `limit` sessions the follower may see, for a
   * back-fill. `scope` follows the event that asked for it, even when the read
   * model (another consumer of the same event) has not caught up yet.
   */
  listForBackfill(db: Db, followerId: string, authorId: string, scope: BackfillScope, limit: number): Promise<Array<{ id: string; created_at: Date }>> {
    const follower = uuid(followerId);
    return queryRows<Array<{ id: string; created_at: Date }>>(
      db,
      sql`SELECT s.id, s.created_at FROM beer_sessions s
         WHERE s.user_id = ${uuid(authorId)} AND ${scope.asFriend ? notBlockedWith(follower, SESSION_AUTHOR) : canSeeSession(follower)} AND ${scope.unmuted ? sql`true` : notMutedAuthor(follower)}
         ORDER BY s.created_at DESC, s.id DESC LIMIT ${limit}`,
    );
  },

  /** Whether the viewer's feed would show any of the author's sessions now (the read model's friendship, privacy and mute), as the feed's read checks. */
  async anyShownInFeed(db: Db, viewerId: string, authorId: string): Promise<boolean> {
    const viewer = uuid(viewerId);
    const rows = await queryRows<Array<{ shown: boolean }>>(
      db,
      sql`SELECT EXISTS (SELECT 1 FROM beer_sessions s WHERE s.user_id = ${uuid(authorId)} AND ${canSeeSession(viewer)} AND ${notMutedAuthor(viewer)}) AS shown`,
    );
    return rows[0]?.shown ?? false;
  },

  /**
   * A fan-out batch in one round trip: whether the session still exists
   * (`live`), and the followers allowed to see the author's sessions who did
   * not mute them, in id order after `after`, at most `limit`. A named
   * statement: Postgres plans it once per connection, not on every job
   * (planning cost more than running it).
   */
  async liveAudience(prepared: PreparedSql, sessionId: string, authorId: string, after: string | null, limit: number): Promise<{ live: boolean; followers: string[] }> {
    // `after` is a parameter even when null (the first batch): one text for every batch, as a named statement needs.
    const [author, follower] = [uuid(authorId), identifier('f.follower_id')];
    const [row] = await prepared.query<{ live: boolean; followers: string[] }>(
      'fanout_live_audience',
      sql`SELECT EXISTS (SELECT 1 FROM beer_sessions s WHERE s.id = ${uuid(sessionId)}) AS live,
       ARRAY(
         SELECT f.follower_id::text FROM follows f
         WHERE f.followee_id = ${author} AND (${after}::uuid IS NULL OR f.follower_id > ${after}::uuid)
           AND ${audienceSql.canSee(follower, author)}
           AND NOT ${audienceSql.muted(follower, author)}
         ORDER BY f.follower_id LIMIT ${limit}
       ) AS followers`,
    );
    return { live: row?.live ?? false, followers: row?.followers ?? [] };
  },

  /** Every follower of the author, whatever they may see now, in id order after `after`, at most `limit`. */
  async listFollowers(db: Db, authorId: string, after: string | null, limit: number): Promise<string[]> {
    const rows = await queryRows<Array<{ follower_id: string }>>(
      db,
      sql`SELECT follower_id FROM follows WHERE followee_id = ${authorId}::uuid AND (${after}::uuid IS NULL OR follower_id > ${after}::uuid)
       ORDER BY follower_id LIMIT ${limit}`,
    );
    return rows.map((r) => r.follower_id);
  },
};
