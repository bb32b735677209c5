import type { EventData } from '@hoptrack/proto';
import { executeSql, newerSnapshot, sql, type SqlClient } from '@hoptrack/runtime';
import type { Db } from '../db';

/**
 * session_facts: who logged how many beers over how long, and when, kept
 * from the sessions service's events for the stat tiles. The consumer's
 * writes take any SQL client: it runs them over the pool Prisma shares.
 */
export const sessionFactsRepository = {
  /** Inserts the session's facts, or replaces older ones (by version: a late create never undoes an edit; a replay changes nothing). */
  async upsert(db: SqlClient, data: EventData<'session.created.v1'>): Promise<void> {
    await executeSql(
      db,
      sql`INSERT INTO "session_facts" ("session_id", "user_id", "beer_count", "duration_minutes", "created_at", "updated_at", "version")
       VALUES (${data.sessionId}::uuid, ${data.userId}::uuid, ${data.beerCount}, ${data.duration}, ${data.createdAt}::timestamptz,
         ${data.updatedAt}::timestamptz, ${data.version ?? 0}::int)
       ON CONFLICT ("session_id") DO UPDATE SET "user_id" = EXCLUDED."user_id", "beer_count" = EXCLUDED."beer_count",
         "duration_minutes" = EXCLUDED."duration_minutes", "created_at" = EXCLUDED."created_at",
         "updated_at" = EXCLUDED."updated_at", "version" = EXCLUDED."version"
       WHERE ${newerSnapshot('session_facts')}`,
    );
  },
  async deleteBySession(db: SqlClient, sessionId: string): Promise<void> {
    await executeSql(db, sql`DELETE FROM "session_facts" WHERE "session_id" = ${sessionId}::uuid`);
  },
  /** Deletes every session fact of the person; how many went. */
  async deleteOwnedBy(db: Db, userId: string): Promise<number> {
    return (await db.sessionFact.deleteMany({ where: { userId } })).count;
  },
};
