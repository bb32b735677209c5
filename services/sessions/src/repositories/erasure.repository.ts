import { executeSql, queryRows, sql, uuid, type SqlClient } from '@hoptrack/runtime';
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

  /** Deletes the person's likes, comments and reactions on others' sessions, then their sessions with everything on them. */
  async deleteAllOf(db: Db, userId: string): Promise<void> {
    const user = uuid(userId);
    await executeSql(db, sql`DELETE FROM likes WHERE user_id = ${user}`);
    await executeSql(db, sql`DELETE FROM comments WHERE user_id = ${user}`);
    await executeSql(db, sql`DELETE FROM reactions WHERE user_id = ${user}`);
    // Their sessions, and with them (cascade) what everyone left on them.
    await executeSql(db, sql`DELETE FROM beer_sessions WHERE user_id = ${user}`);
  },
};
