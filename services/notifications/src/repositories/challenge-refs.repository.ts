import { executeSql, sql, type SqlClient } from '@hoptrack/runtime';

/**
 * What the inbox keeps of challenges, from the challenges service's events:
 * the title, for the words of an entry ("Alice invited you to “Try 3 new
 * styles”"). Challenge titles are the catalogue's, nobody's: an erasure keeps them.
 */
export const challengeRefsRepository = {
  /** Each event that carries the title refreshes it; the newest event wins, whatever order they arrive in. */
  async remember(db: SqlClient, challengeId: string, title: string, at: Date): Promise<void> {
    await executeSql(
      db,
      sql`INSERT INTO "challenge_refs" (challenge_id, title, updated_at) VALUES (${challengeId}::uuid, ${title}, ${at})
       ON CONFLICT (challenge_id) DO UPDATE SET title = EXCLUDED.title, updated_at = EXCLUDED.updated_at
        WHERE challenge_refs.updated_at <= EXCLUDED.updated_at`,
    );
  },
};
