import { accessOf, audienceSql, forbidden, identifier, notFound, sql, uuid, type Sql } from '@hoptrack/runtime';
import type { Db } from '../db';
import { sessionsRepository } from '../repositories/sessions.repository';

/** The author of a session row `s`, the owner the rules below are about. */
export const SESSION_AUTHOR = identifier('s.user_id');

/**
 * The audience module's rules as the sessions queries use them: a session row
 * `s`, the viewer a fragment (`uuid(viewerId)`, or a column such as a
 * follower's) that binds its own parameters. Kept as SQL so lists, the feed
 * and counts filter in the database, the same way everywhere; the rules
 * themselves live in the runtime (services/runtime/src/audience/policy.ts).
 */
export const canSeeSession = (viewer: Sql): Sql => audienceSql.canSee(viewer, SESSION_AUTHOR);

/** The viewer muted the author: their sessions stay out of the viewer's feed (still visible on the profile). */
export const mutedAuthor = (viewer: Sql): Sql => audienceSql.muted(viewer, SESSION_AUTHOR);
export const notMutedAuthor = (viewer: Sql): Sql => sql`NOT ${mutedAuthor(viewer)}`;

/** Someone whose likes, comments and reactions the viewer may see: nobody either of them blocked. */
export const notBlockedWith = (viewer: Sql, other: Sql): Sql => sql`NOT ${audienceSql.blockedBetween(viewer, other)}`;

/** A session the viewer may act on (like, comment, react); otherwise 404, as if it did not exist. */
export async function assertCanSeeSession(db: Db, viewerId: string, sessionId: string): Promise<{ userId: string }> {
  const userId = await sessionsRepository.findAuthorWhere(db, sessionId, canSeeSession(uuid(viewerId)));
  if (userId === null) throw notFound('Session not found');
  return { userId };
}

/** A person's sessions as a list (a profile's tab, their session photos): private profiles to friends only (403), blocked or unknown people 404. */
export async function assertCanListSessionsOf(db: Db, viewerId: string, userId: string): Promise<void> {
  const access = await accessOf(db, viewerId, userId);
  if (access === 'blocked' || access === 'unknown') throw notFound('User not found');
  if (access === 'private') throw forbidden('This profile is private');
}
