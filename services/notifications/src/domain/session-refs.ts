import type { EventData } from '@hoptrack/proto';
import type { SqlClient } from '@hoptrack/runtime';

/**
 * What the inbox keeps of sessions, from the sessions service's events: whose
 * each is and its title (the entry's words and link), and who commented on
 * it (the recipients of 'comment.followed'). A session from before this
 * service heard of it is learned from its first interaction (no title yet).
 */
export class SessionRefs {
  async upsert(tx: SqlClient, data: EventData<'session.created.v1'>): Promise<void> {
    await tx.$executeRawUnsafe(
      `INSERT INTO "session_refs" (session_id, owner_id, title, updated_at) VALUES ($1::uuid, $2::uuid, $3, $4::timestamptz)
       ON CONFLICT (session_id) DO UPDATE SET title = COALESCE(EXCLUDED.title, session_refs.title), updated_at = EXCLUDED.updated_at
        WHERE session_refs.updated_at <= EXCLUDED.updated_at`,
      data.sessionId,
      data.userId,
      data.title ?? null,
      data.updatedAt,
    );
  }

  async ensure(tx: SqlClient, sessionId: string, ownerId: string, at: Date): Promise<void> {
    await tx.$executeRawUnsafe(
      `INSERT INTO "session_refs" (session_id, owner_id, updated_at) VALUES ($1::uuid, $2::uuid, $3) ON CONFLICT (session_id) DO NOTHING`,
      sessionId,
      ownerId,
      at,
    );
  }

  async forget(tx: SqlClient, sessionId: string): Promise<void> {
    await tx.$executeRawUnsafe('DELETE FROM "session_commenters" WHERE session_id = $1::uuid', sessionId);
    await tx.$executeRawUnsafe('DELETE FROM "session_refs" WHERE session_id = $1::uuid', sessionId);
  }

  /** The most recent commenters, newest first. */
  async commenters(tx: SqlClient, sessionId: string, limit: number): Promise<string[]> {
    const rows = await tx.$queryRawUnsafe<Array<{ user_id: string }>>(
      'SELECT user_id::text AS "user_id" FROM "session_commenters" WHERE session_id = $1::uuid ORDER BY last_comment_at DESC LIMIT $2',
      sessionId,
      limit,
    );
    return rows.map((row) => row.user_id);
  }

  async commented(tx: SqlClient, sessionId: string, userId: string, at: Date): Promise<void> {
    await tx.$executeRawUnsafe(
      `INSERT INTO "session_commenters" (session_id, user_id, last_comment_at) VALUES ($1::uuid, $2::uuid, $3)
       ON CONFLICT (session_id, user_id) DO UPDATE SET last_comment_at = GREATEST(session_commenters.last_comment_at, EXCLUDED.last_comment_at)`,
      sessionId,
      userId,
      at,
    );
  }
}
