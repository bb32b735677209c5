import { audienceSql, notFound } from '@hoptrack/runtime';
import type { Db } from '../db';

/**
 * The audience module's rules as the sessions queries use them: a session row
 * `s`, viewer `$1`. Kept as SQL so lists, the feed and counts filter in the
 * database, the same way everywhere; the rules themselves live in the runtime
 * (services/runtime/src/audience/policy.ts).
 */
export const CAN_SEE_SESSION = audienceSql.canSee('$1::uuid', 's.user_id');

/** The viewer muted the author: their sessions stay out of the viewer's feed (still visible on the profile). */
export const MUTED = audienceSql.muted('$1::uuid', 's.user_id');
export const NOT_MUTED = `NOT ${MUTED}`;

/** Someone whose likes, comments and reactions the viewer may see: nobody either of them blocked. */
export const notBlockedWith = (viewer: string, other: string) => `NOT ${audienceSql.blockedBetween(viewer, other)}`;

/** A session the viewer may act on (like, comment, react); otherwise 404, as if it did not exist. */
export async function assertCanSeeSession(db: Db, viewerId: string, sessionId: string): Promise<{ userId: string }> {
  const rows = await db.$queryRawUnsafe<Array<{ user_id: string }>>(
    `SELECT s.user_id FROM beer_sessions s WHERE s.id = $2::uuid AND ${CAN_SEE_SESSION}`,
    viewerId,
    sessionId,
  );
  const row = rows[0];
  if (!row) throw notFound('Session not found');
  return { userId: row.user_id };
}
