import { audienceSql, sql, uuid, type Sql } from '@hoptrack/runtime';
import type { PreparedSql } from '../db';
import { canSeeSession, mutedAuthor } from '../domain/visibility';

/** What one viewer sees differently in a page of shared cards. */
export interface ViewerBits {
  /** The sessions the viewer may see now (not deleted, author not hidden or blocked since). */
  visible: Set<string>;
  /** Those of them whose author the viewer muted: out of the feed, still shown elsewhere. */
  muted: Set<string>;
  /** The sessions the viewer liked. */
  liked: Set<string>;
  /** session → the emojis the viewer gave it. */
  reacted: Map<string, Set<string>>;
  /** People either side blocked who liked, commented or reacted on these sessions: out of every list and count. */
  hidden: Set<string>;
  /** session → how many of its likes, comments and reactions (per emoji) are by hidden people. */
  hiddenLikes: Map<string, number>;
  hiddenComments: Map<string, number>;
  hiddenReactions: Map<string, Map<string, number>>;
}

interface Row {
  kind: 'seen' | 'like' | 'comment' | 'reaction';
  session_id: string;
  user_id: string;
  emoji: string | null;
  muted: boolean | null;
}

const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

/** Nothing seen, nothing of the viewer's, nobody hidden. */
export function noViewerBits(): ViewerBits {
  return { visible: new Set(), muted: new Set(), liked: new Set(), reacted: new Map(), hidden: new Set(), hiddenLikes: new Map(), hiddenComments: new Map(), hiddenReactions: new Map() };
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
 * The page's one statement: which of `sessionIds` the viewer may see, their
 * own likes and reactions on them, and whatever people with a block between
 * them and the viewer did there (usually nothing). Each list is probed by
 * index per session of the page for the viewer and their few blocked people,
 * never filtered person by person against the whole graph.
 */
export async function viewerBits(prepared: PreparedSql, viewerId: string, sessionIds: readonly string[]): Promise<ViewerBits> {
  const bits = noViewerBits();
  if (sessionIds.length === 0) return bits;
  const rows = await prepared.query<Row>('feed-viewer-bits', viewerBitsSql(viewerId, sessionIds));
  for (const row of rows) {
    const mine = row.user_id === viewerId;
    if (row.kind === 'seen') {
      bits.visible.add(row.session_id);
      if (row.muted) bits.muted.add(row.session_id);
    }
    else if (mine && row.kind === 'like') bits.liked.add(row.session_id);
    else if (mine && row.kind === 'reaction' && row.emoji) {
      const emojis = bits.reacted.get(row.session_id) ?? new Set<string>();
      bits.reacted.set(row.session_id, emojis.add(row.emoji));
    } else if (!mine) {
      bits.hidden.add(row.user_id);
      if (row.kind === 'like') bump(bits.hiddenLikes, row.session_id);
      else if (row.kind === 'comment') bump(bits.hiddenComments, row.session_id);
      else if (row.emoji) {
        const perEmoji = bits.hiddenReactions.get(row.session_id) ?? new Map<string, number>();
        bits.hiddenReactions.set(row.session_id, bump(perEmoji, row.emoji));
      }
    }
  }
  return bits;
}
