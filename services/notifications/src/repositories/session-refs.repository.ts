import { executeSql, newerSnapshot, queryRows, sql, type SqlClient } from '@hoptrack/runtime';

/**
 * What the inbox keeps of sessions, from the sessions service's events: whose
 * each is and its title (the entry's words and link), and who commented on
 * it (the recipients of 'comment.followed'). A session from before this
 * service heard of it is learned from its first interaction (no title yet).
 */

export interface SessionRef {
  sessionId: string;
  ownerId: string;
  title: string | null;
  updatedAt: string;
  /** The session's version (0: an event published before versions): an older event never overwrites a newer title (issue 38). */
  version: number;
}

export const sessionRefsRepository = {
  async upsert(db: SqlClient, ref: SessionRef): Promise<void> {
    await executeSql(
      db,
      sql`INSERT INTO "session_refs" (session_id, owner_id, title, updated_at, version)
        VALUES (${ref.sessionId}::uuid, ${ref.ownerId}::uuid, ${ref.title}, ${ref.updatedAt}::timestamptz, ${ref.version}::int)
       ON CONFLICT (session_id) DO UPDATE SET title = COALESCE(EXCLUDED.title, session_refs.title), updated_at = EXCLUDED.updated_at, version = EXCLUDED.version
        WHERE ${newerSnapshot('session_refs')}`,
    );
  },

  /** Learns a session from an interaction with it, unless it is known already. */
  async ensure(db: SqlClient, sessionId: string, ownerId: string, at: Date): Promise<void> {
    await executeSql(
      db,
      sql`INSERT INTO "session_refs" (session_id, owner_id, updated_at) VALUES (${sessionId}::uuid, ${ownerId}::uuid, ${at}) ON CONFLICT (session_id) DO NOTHING`,
    );
  },

  /** A deleted session: its commenters and itself. */
  async forget(db: SqlClient, sessionId: string): Promise<void> {
    await executeSql(db, sql`DELETE FROM "session_commenters" WHERE session_id = ${sessionId}::uuid`);
    await executeSql(db, sql`DELETE FROM "session_refs" WHERE session_id = ${sessionId}::uuid`);
  },

  /** The most recent commenters, newest first. */
  async latestCommenters(db: SqlClient, sessionId: string, limit: number): Promise<string[]> {
    const rows = await queryRows<Array<{ user_id: string }>>(
      db,
      sql`SELECT user_id::text AS "user_id" FROM "session_commenters" WHERE session_id = ${sessionId}::uuid ORDER BY last_comment_at DESC LIMIT ${limit}`,
    );
    return rows.map((row) => row.user_id);
  },

  async recordComment(db: SqlClient, sessionId: string, userId: string, at: Date): Promise<void> {
    await executeSql(
      db,
      sql`INSERT INTO "session_commenters" (session_id, user_id, last_comment_at) VALUES (${sessionId}::uuid, ${userId}::uuid, ${at})
       ON CONFLICT (session_id, user_id) DO UPDATE SET last_comment_at = GREATEST(session_commenters.last_comment_at, EXCLUDED.last_comment_at)`,
    );
  },

  /** An erased person: their comments' traces, and their sessions with everyone's traces on them. */
  async forgetPerson(db: SqlClient, userId: string): Promise<void> {
    await executeSql(
      db,
      sql`DELETE FROM "session_commenters" WHERE user_id = ${userId}::uuid OR session_id IN (SELECT session_id FROM "session_refs" WHERE owner_id = ${userId}::uuid)`,
    );
    await executeSql(db, sql`DELETE FROM "session_refs" WHERE owner_id = ${userId}::uuid`);
  },
};
