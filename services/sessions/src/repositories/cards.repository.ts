import { audienceSql, queryRows, sql, uuid, type Sql } from '@hoptrack/runtime';
import type { Db, PreparedSql } from '../db';
import { canSeeSession, mutedAuthor } from '../domain/visibility';

/** A like or comment among a session's first few, with the session's total (`n`). */
export interface CardListRow {
  session_id: string;
  id: string;
  user_id: string;
  n: bigint | number;
}
export interface CardCommentRow extends CardListRow {
  content: string;
  created_at: Date;
  edited_at: Date | null;
}
/** One emoji on a session: how many chose it and the first few who did. */
export interface CardReactionRow {
  session_id: string;
  emoji: string;
  n: bigint | number;
  user_ids: string[];
}

/** A row of the viewer's bits of a page: a session they may see, or a like, comment or reaction of theirs or of someone blocked either way. */
export interface ViewerBitsRow {
  kind: 'seen' | 'like' | 'comment' | 'reaction';
  session_id: string;
  user_id: string;
  emoji: string | null;
  muted: boolean | null;
}

/**
 * Planned once per connection (a named statement): planning it cost more than
 * running it. Its text is the same for every viewer and page (the viewer and
 * the ids are only parameters), as a named statement's must be.
 */
function viewerBitsSql(viewerId: string, sessionIds: readonly string[]): Sql {
  const [viewer, page] = [uuid(viewerId), sql`${[...sessionIds]}::uuid[]`];
  return sql`WITH hidden AS (${audienceSql.blockedPeople(viewer)}),
       people AS (SELECT array_append(ARRAY(SELECT id FROM hidden), ${viewer}) AS ids)
  SELECT 'seen' AS kind, s.id AS session_id, s.user_id, NULL::text AS emoji, (s.user_id <> ${viewer} AND ${mutedAuthor(viewer)}) AS muted FROM beer_sessions s
    WHERE s.id = ANY(${page}) AND ${canSeeSession(viewer)}
  UNION ALL
  SELECT 'like', l.session_id, l.user_id, NULL, NULL FROM unnest(${page}) AS page(id), people p, likes l
    WHERE l.session_id = page.id AND l.user_id = ANY(p.ids)
  UNION ALL
  SELECT 'comment', c.session_id, c.user_id, NULL, NULL FROM comments c JOIN hidden h ON c.user_id = h.id WHERE c.session_id = ANY(${page})
  UNION ALL
  SELECT 'reaction', r.session_id, r.user_id, r.emoji, NULL FROM unnest(${page}) AS page(id), people p, reactions r
    WHERE r.session_id = page.id AND r.user_id = ANY(p.ids)`;
}

/**
 * The reads behind feed cards. A card's lists carry their totals (window
 * functions), so the cards of any number of sessions take one statement per
 * list, however many cards.
 */
export const cardsRepository = {
  /** Per session, its `perSession` newest likes, newest first, each with the session's like count. */
  newestLikes(db: Db, sessionIds: string[], perSession: number): Promise<CardListRow[]> {
    return queryRows<CardListRow[]>(
      db,
      sql`SELECT session_id, id, user_id, n FROM (
         SELECT l.session_id, l.id, l.user_id, l.created_at,
                row_number() OVER (PARTITION BY l.session_id ORDER BY l.created_at DESC, l.id DESC) AS rank,
                count(*) OVER (PARTITION BY l.session_id) AS n
         FROM likes l WHERE l.session_id = ANY(${sessionIds}::uuid[])
       ) ranked WHERE rank <= ${perSession} ORDER BY created_at DESC, id DESC`,
    );
  },

  /** Per session, its `perSession` newest comments, oldest first, each with the session's comment count. */
  newestComments(db: Db, sessionIds: string[], perSession: number): Promise<CardCommentRow[]> {
    return queryRows<CardCommentRow[]>(
      db,
      sql`SELECT session_id, id, user_id, content, created_at, edited_at, n FROM (
         SELECT c.session_id, c.id, c.user_id, c.content, c.created_at, c.edited_at,
                row_number() OVER (PARTITION BY c.session_id ORDER BY c.created_at DESC, c.id DESC) AS rank,
                count(*) OVER (PARTITION BY c.session_id) AS n
         FROM comments c WHERE c.session_id = ANY(${sessionIds}::uuid[])
       ) ranked WHERE rank <= ${perSession} ORDER BY created_at, id`,
    );
  },

  /** Per session and emoji, in the order of first use: the count and the first `perSession` people who chose it. */
  reactionsByEmoji(db: Db, sessionIds: string[], perSession: number): Promise<CardReactionRow[]> {
    return queryRows<CardReactionRow[]>(
      db,
      sql`SELECT r.session_id, r.emoji, count(*) AS n, (array_agg(r.user_id::text ORDER BY r.created_at, r.id))[1:${perSession}] AS user_ids
       FROM reactions r WHERE r.session_id = ANY(${sessionIds}::uuid[])
       GROUP BY r.session_id, r.emoji ORDER BY min(r.created_at), r.emoji`,
    );
  },

  /**
   * A page's one statement: which of `sessionIds` the viewer may see (and
   * whether they muted the author), their own likes and reactions on them, and
   * whatever people with a block between them and the viewer did there
   * (usually nothing). Each list is probed by index per session of the page
   * for the viewer and their few blocked people, never filtered person by
   * person against the whole graph.
   */
  viewerBits(prepared: PreparedSql, viewerId: string, sessionIds: readonly string[]): Promise<ViewerBitsRow[]> {
    return prepared.query<ViewerBitsRow>('feed-viewer-bits', viewerBitsSql(viewerId, sessionIds));
  },
};
