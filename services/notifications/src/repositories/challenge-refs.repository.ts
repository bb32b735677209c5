import { executeSql, sql, type SqlClient } from '@hoptrack/runtime';

/**
 * What the inbox keeps of challenges, from the challenges service's events:
 * the title, for the words of an entry ("Alice invited you to “Try 3 new
 * styles”"). Challenge titles are the catalogue's, nobody's: an erasure keeps them.
 */
export const challengeRefsRepository = {
  /**
   * The first event that carries the title stores it. A challenge's title is
   * fixed when the generator creates it, so every event says the same: there
   * is nothing to order, and no clock is consulted (issue 38).
   */
  async remember(db: SqlClient, challengeId: string, title: string, at: Date): Promise<void> {
    await executeSql(
      db,
      sql`INSERT INTO "challenge_refs" (challenge_id, title, updated_at) VALUES (${challengeId}::uuid, ${title}, ${at})
       ON CONFLICT (challenge_id) DO NOTHING`,
    );
  },
};
