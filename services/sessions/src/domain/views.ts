import { COMMENTS_IN_CARD, musicTrack, type FeedSession, type PublicSession, type ReactionSummary, type SessionComment, type SessionPerson } from '@hoptrack/proto';
import { peopleByIds, type Person } from '@hoptrack/runtime';
import type { BeerSession, Db } from '../db';
import { notBlockedWith } from './visibility';
import type { PhotoUrls } from '../photos/photo-urls';

/** Likes carried per card: enough for three avatars and a tooltip; likeCount has the total. */
const LIKES_IN_CARD = 20;

export function personView(id: string, user: Person | undefined): SessionPerson {
  return user
    ? { id, username: user.username, displayName: user.displayName, profilePicture: user.profilePicture, avatar: user.avatar }
    : { id, username: 'unknown', displayName: 'Hoptrack user', profilePicture: null, avatar: null };
}

interface LikeRow {
  id: string;
  user_id: string;
  session_id: string;
}
interface CommentRow extends LikeRow {
  content: string;
  created_at: Date;
}
/** Every row also carries its session's totals (window functions), so counts cost no query of their own. */
interface Counted {
  n: bigint | number;
}
interface ReactionRow {
  session_id: string;
  user_id: string;
  emoji: string;
}

/**
 * Turns session rows into the feed-session shape for one viewer, in a fixed
 * number of queries however many sessions (four, then one for the people):
 * likes (newest, capped, with each session's total and whether the viewer
 * is among them), comments (oldest first, capped, with the total),
 * reactions, and every person from the users read model. People who blocked
 * the viewer, or whom the viewer blocked, are left out of every list and
 * count. (The bench counted nine statements per feed page before the counts
 * moved into the list queries; docs/benchmarks.md.)
 */
export async function hydrateSessions(db: Db, viewerId: string, sessions: BeerSession[], photos: PhotoUrls): Promise<FeedSession[]> {
  if (sessions.length === 0) return [];
  const ids = sessions.map((s) => s.id);
  const visiblePerson = (column: string) => notBlockedWith('$1::uuid', column);
  const [likes, comments, reactions] = await Promise.all([
    db.$queryRawUnsafe<Array<LikeRow & Counted & { liked: boolean }>>(
      `SELECT id, user_id, session_id, n, liked FROM (
         SELECT l.id, l.user_id, l.session_id, l.created_at,
                row_number() OVER (PARTITION BY l.session_id ORDER BY l.created_at DESC, l.id DESC) AS rank,
                count(*) OVER (PARTITION BY l.session_id) AS n,
                bool_or(l.user_id = $1::uuid) OVER (PARTITION BY l.session_id) AS liked
         FROM likes l WHERE l.session_id = ANY($2::uuid[]) AND ${visiblePerson('l.user_id')}
       ) ranked WHERE rank <= ${LIKES_IN_CARD} ORDER BY created_at DESC, id DESC`,
      viewerId,
      ids,
    ),
    db.$queryRawUnsafe<Array<CommentRow & Counted>>(
      `SELECT id, user_id, session_id, content, created_at, n FROM (
         SELECT c.*, row_number() OVER (PARTITION BY c.session_id ORDER BY c.created_at DESC, c.id DESC) AS rank,
                count(*) OVER (PARTITION BY c.session_id) AS n
         FROM comments c WHERE c.session_id = ANY($2::uuid[]) AND ${visiblePerson('c.user_id')}
       ) ranked WHERE rank <= ${COMMENTS_IN_CARD} ORDER BY created_at, id`,
      viewerId,
      ids,
    ),
    db.$queryRawUnsafe<ReactionRow[]>(
      `SELECT r.session_id, r.user_id, r.emoji FROM reactions r WHERE r.session_id = ANY($2::uuid[]) AND ${visiblePerson('r.user_id')} ORDER BY r.created_at, r.id`,
      viewerId,
      ids,
    ),
  ]);
  const people = new Set<string>([...sessions.map((s) => s.userId), ...likes.map((l) => l.user_id), ...comments.map((c) => c.user_id), ...reactions.map((r) => r.user_id)]);
  const users = await peopleByIds(db, [...people]);
  const person = (id: string) => personView(id, users.get(id));
  const totalOf = (rows: Array<{ session_id: string } & Counted>) => new Map(rows.map((r) => [r.session_id, Number(r.n)]));
  const likeCount = totalOf(likes);
  const commentCount = totalOf(comments);
  const likedIds = new Set(likes.filter((l) => l.liked).map((l) => l.session_id));
  const grouped = <T extends { session_id: string }>(rows: T[]) => {
    const map = new Map<string, T[]>();
    for (const row of rows) map.set(row.session_id, [...(map.get(row.session_id) ?? []), row]);
    return map;
  };
  const likesBySession = grouped(likes);
  const commentsBySession = grouped(comments);
  const reactionsBySession = grouped(reactions);

  return sessions.map((s) => ({
    id: s.id,
    userId: s.userId,
    user: person(s.userId),
    title: s.title,
    description: s.description,
    location: s.location,
    latitude: s.latitude,
    longitude: s.longitude,
    photo: photos.forViewer(s.photo, viewerId),
    beerCount: s.beerCount,
    duration: s.duration,
    avgAbv: s.avgAbv,
    beerTypes: s.beerTypes,
    musicTrack: parseTrack(s.musicTrack),
    likeCount: likeCount.get(s.id) ?? 0,
    commentCount: commentCount.get(s.id) ?? 0,
    isLikedByCurrentUser: likedIds.has(s.id),
    likes: (likesBySession.get(s.id) ?? []).map((l) => ({ id: l.id, userId: l.user_id, user: person(l.user_id) })),
    comments: (commentsBySession.get(s.id) ?? []).map((c) => commentView(c, person(c.user_id))),
    reactions: summarise(reactionsBySession.get(s.id) ?? [], person),
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  }));
}

export function commentView(c: CommentRow, user: SessionPerson): SessionComment {
  return { id: c.id, sessionId: c.session_id, userId: c.user_id, content: c.content, createdAt: c.created_at.toISOString(), user };
}

/** Reactions grouped by emoji, most used first (ties in the order of the reaction bar's first use). */
export function summarise(rows: Array<{ user_id: string; emoji: string }>, person: (id: string) => SessionPerson): ReactionSummary[] {
  const byEmoji = new Map<string, string[]>();
  for (const row of rows) byEmoji.set(row.emoji, [...(byEmoji.get(row.emoji) ?? []), row.user_id]);
  return [...byEmoji.entries()]
    .map(([emoji, userIds]) => ({ emoji, count: userIds.length, users: userIds.map((id) => ({ id, displayName: person(id).displayName })) }))
    .sort((a, b) => b.count - a.count);
}

function parseTrack(value: unknown): FeedSession['musicTrack'] {
  const parsed = musicTrack.nullable().safeParse(value ?? null);
  return parsed.success ? parsed.data : null;
}

/** The profile's public shape. */
export function publicSessionView(s: BeerSession, likesCount: number, photo: string | null): PublicSession {
  return {
    id: s.id,
    title: s.title,
    description: s.description,
    createdAt: s.createdAt.toISOString(),
    beerCount: s.beerCount,
    duration: s.duration,
    averageAbv: s.avgAbv,
    location: s.location,
    photos: photo ? [photo] : [],
    likesCount,
  };
}
