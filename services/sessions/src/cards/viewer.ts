import type { PreparedSql } from '../db';
import { cardsRepository } from '../repositories/cards.repository';

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

const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

/** Nothing seen, nothing of the viewer's, nobody hidden. */
export function noViewerBits(): ViewerBits {
  return { visible: new Set(), muted: new Set(), liked: new Set(), reacted: new Map(), hidden: new Set(), hiddenLikes: new Map(), hiddenComments: new Map(), hiddenReactions: new Map() };
}

/** The viewer's bits of a page, from the page's one statement (cardsRepository.viewerBits). */
export async function viewerBits(prepared: PreparedSql, viewerId: string, sessionIds: readonly string[]): Promise<ViewerBits> {
  const bits = noViewerBits();
  if (sessionIds.length === 0) return bits;
  const rows = await cardsRepository.viewerBits(prepared, viewerId, sessionIds);
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
