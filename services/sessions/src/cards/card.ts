import { musicTrack, type FeedSession } from '@hoptrack/proto';
import type { BeerSession, Db } from '../db';
import { photosOf } from '../domain/views';
import { cardsRepository } from '../repositories/cards.repository';
import { sessionsRepository } from '../repositories/sessions.repository';

/**
 * How many likers, comments and reactors per emoji a card keeps. A card shows
 * three of each; the rest is slack for the viewer's blocks, which take people
 * out at read time.
 */
export const CARD_LIST = 10;

/**
 * A session card as every viewer shares it: the session, its counts and the
 * first few people of each list, by id. Kept in Redis (CardStore), rebuilt
 * from Postgres on a miss; what differs per viewer (liked by me, my
 * reactions, people either side blocked, names and pictures) is added when a
 * page is read (CardRenderer).
 */
export interface Card {
  id: string;
  userId: string;
  title: string;
  description: string | null;
  location: string | null;
  latitude: string | null;
  longitude: string | null;
  /** The stored photo reference; signed per viewer when read. */
  photo: string | null;
  /**
   * Every stored photo in order (signed per viewer when read), so a card with
   * several costs no extra read. Optional: cards cached before the list existed
   * (and written by instances that do not know it yet) lack it; the reader
   * falls back to `photo`.
   */
  photos?: string[];
  beerCount: number;
  duration: number;
  avgAbv: string | null;
  beerTypes: string[];
  /** Parsed when the card is built, not per read. */
  musicTrack: FeedSession['musicTrack'];
  createdAt: string;
  updatedAt: string;
  likeCount: number;
  /** Newest first, up to CARD_LIST. */
  likes: Array<{ id: string; userId: string }>;
  commentCount: number;
  /** The newest CARD_LIST, oldest first. */
  /** `editedAt` optional: cards cached before edits existed lack it (never edited, then). */
  comments: Array<{ id: string; userId: string; content: string; createdAt: string; editedAt?: string | null }>;
  /** Per emoji, in the order of first use; users are the first CARD_LIST who chose it. */
  reactions: Array<{ emoji: string; count: number; userIds: string[] }>;
}

function groupBy<T extends { session_id: string }>(rows: T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const list = map.get(row.session_id);
    if (list) list.push(row);
    else map.set(row.session_id, [row]);
  }
  return map;
}

/**
 * Builds the cards of `ids` from Postgres (the cold path: a card not in Redis
 * yet, or invalidated by a write). Four statements however many cards; the
 * lists carry their totals (window functions).
 */
export async function buildCards(db: Db, ids: readonly string[]): Promise<Map<string, Card>> {
  const cards = new Map<string, Card>();
  if (ids.length === 0) return cards;
  const list = [...ids];
  const [sessions, likes, comments, reactions] = await Promise.all([
    sessionsRepository.findByIds(db, list),
    cardsRepository.newestLikes(db, list, CARD_LIST),
    cardsRepository.newestComments(db, list, CARD_LIST),
    cardsRepository.reactionsByEmoji(db, list, CARD_LIST),
  ]);
  const likesOf = groupBy(likes);
  const commentsOf = groupBy(comments);
  const reactionsOf = groupBy(reactions);
  for (const s of sessions) {
    const sessionLikes = likesOf.get(s.id) ?? [];
    const sessionComments = commentsOf.get(s.id) ?? [];
    cards.set(s.id, {
      ...cardOfNewSession(s),
      likeCount: Number(sessionLikes[0]?.n ?? 0),
      likes: sessionLikes.map((l) => ({ id: l.id, userId: l.user_id })),
      commentCount: Number(sessionComments[0]?.n ?? 0),
      comments: sessionComments.map((c) => ({ id: c.id, userId: c.user_id, content: c.content, createdAt: c.created_at.toISOString(), editedAt: c.edited_at?.toISOString() ?? null })),
      reactions: (reactionsOf.get(s.id) ?? []).map((r) => ({ emoji: r.emoji, count: Number(r.n), userIds: r.user_ids })),
    });
  }
  return cards;
}

/** A stored track that no longer parses (an older shape) shows as none rather than failing the page. */
function parseTrack(value: unknown): FeedSession['musicTrack'] {
  const parsed = musicTrack.nullable().safeParse(value ?? null);
  return parsed.success ? parsed.data : null;
}

/** The card of a session nobody has acted on yet (just created), and the base of every card: its row alone. */
export function cardOfNewSession(s: BeerSession): Card {
  return {
    id: s.id,
    userId: s.userId,
    title: s.title,
    description: s.description,
    location: s.location,
    latitude: s.latitude,
    longitude: s.longitude,
    photo: s.photo,
    photos: photosOf(s),
    beerCount: s.beerCount,
    duration: s.duration,
    avgAbv: s.avgAbv,
    beerTypes: s.beerTypes,
    musicTrack: parseTrack(s.musicTrack),
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    likeCount: 0,
    likes: [],
    commentCount: 0,
    comments: [],
    reactions: [],
  };
}
