import { notFound } from '@hoptrack/runtime';
import type { Db } from '../db';

/**
 * SQL conditions on a session row `s` (and its author's read-model row `u`,
 * LEFT JOINed) for viewer `$1`. Kept as SQL so lists, the feed and counts
 * filter in the database, the same way everywhere.
 *
 * Someone may see a session when it is theirs, or when neither blocked the
 * other and the author is public or a friend. An author the read model has
 * not heard of yet counts as private: privacy errs on the side of hiding.
 */
export const notBlockedWith = (viewer: string, other: string) =>
  `NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = ${viewer} AND b.blocked_id = ${other}) OR (b.blocker_id = ${other} AND b.blocked_id = ${viewer}))`;

export const isFriendOf = (viewer: string, author: string) =>
  `EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ${viewer} AND f.followee_id = ${author} AND f.is_friend)`;

export const CAN_SEE_SESSION = `(s.user_id = $1::uuid OR (${notBlockedWith('$1::uuid', 's.user_id')}
  AND (NOT COALESCE(u.is_profile_private, true) OR ${isFriendOf('$1::uuid', 's.user_id')})))`;

/** The viewer muted the author: their sessions stay out of the viewer's feed (still visible on the profile). */
export const NOT_MUTED = `NOT EXISTS (SELECT 1 FROM mutes m WHERE m.user_id = $1::uuid AND m.muted_id = s.user_id)`;

/** A session the viewer may act on (like, comment, react); otherwise 404, as if it did not exist. */
export async function assertCanSeeSession(db: Db, viewerId: string, sessionId: string): Promise<{ userId: string }> {
  const rows = await db.$queryRawUnsafe<Array<{ user_id: string }>>(
    `SELECT s.user_id FROM beer_sessions s LEFT JOIN users u ON u.id = s.user_id WHERE s.id = $2::uuid AND ${CAN_SEE_SESSION}`,
    viewerId,
    sessionId,
  );
  const row = rows[0];
  if (!row) throw notFound('Session not found');
  return { userId: row.user_id };
}

export type ProfileAccess = 'self' | 'visible' | 'private' | 'blocked' | 'unknown';

/** How the viewer stands towards a user's profile (sessions tab, stats). */
export async function profileAccess(db: Db, viewerId: string, userId: string): Promise<ProfileAccess> {
  if (viewerId === userId) return 'self';
  const [row] = await db.$queryRawUnsafe<Array<{ blocked: boolean; private: boolean | null; friend: boolean }>>(
    `SELECT NOT ${notBlockedWith('$1::uuid', '$2::uuid')} AS blocked,
            (SELECT is_profile_private FROM users WHERE id = $2::uuid) AS private,
            ${isFriendOf('$1::uuid', '$2::uuid')} AS friend`,
    viewerId,
    userId,
  );
  if (!row || row.blocked) return 'blocked';
  if (row.private === null) return 'unknown';
  return row.private === false || row.friend ? 'visible' : 'private';
}
