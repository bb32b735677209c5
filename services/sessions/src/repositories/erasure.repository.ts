import { queryRows, sql, uuid, type SqlClient } from '@hoptrack/runtime';
import type { Db } from '../db';

/** A person's rows across sessions, likes, comments and reactions (an account deletion). */
export const erasureRepository = {
  /** The sessions whose cards name or count the person: their own, and those they liked, commented on or reacted to. */
  async sessionIdsTouchedBy(db: SqlClient, userId: string): Promise<string[]> {
    const user = uuid(userId);
    const rows = await queryRows<Array<{ id: string }>>(
      db,
      sql`SELECT id::text AS id FROM beer_sessions WHERE user_id = ${user}
       UNION SELECT session_id::text FROM likes WHERE user_id = ${user}
       UNION SELECT session_id::text FROM comments WHERE user_id = ${user}
       UNION SELECT session_id::text FROM reactions WHERE user_id = ${user}`,
    );
    return rows.map((r) => r.id);
  },

  /** The people whose timelines can hold the person's sessions (fan-out and back-fill write to followers only). */
  async followersOf(db: SqlClient, userId: string): Promise<string[]> {
    const rows = await queryRows<Array<{ id: string }>>(db, sql`SELECT follower_id::text AS id FROM follows WHERE followee_id = ${uuid(userId)}`);
    return rows.map((r) => r.id);
  },

  /**
   * Deletes the person's likes, comments and reactions on others' sessions,
   * then their sessions with everything on them; returns the sessions whose
   * cards that changed (what the rows held at the delete, not at an earlier read).
   */
  async deleteAllOf(db: Db, userId: string): Promise<string[]> {
    const user = uuid(userId);
    const touched = await queryRows<Array<{ id: string }>>(
      db,
      sql`WITH l AS (DELETE FROM likes WHERE user_id = ${user} RETURNING session_id),
               c AS (DELETE FROM comments WHERE user_id = ${user} RETURNING session_id),
               r AS (DELETE FROM reactions WHERE user_id = ${user} RETURNING session_id),
               -- Their sessions, and with them (cascade) what everyone left on them.
               s AS (DELETE FROM beer_sessions WHERE user_id = ${user} RETURNING id AS session_id)
          SELECT session_id::text AS id FROM l UNION SELECT session_id::text FROM c UNION SELECT session_id::text FROM r UNION SELECT session_id::text FROM s`,
    );
    return touched.map((r) => r.id);
  },
};
