import { queryRows, sql, uuid, type Sql } from '@hoptrack/runtime';
import type { Db } from '../db';
import type { Page } from './sessions.repository';

/** One stored photo of a session, as the list reads it. */
export interface SessionPhotoRow {
  session_id: string;
  title: string;
  created_at: Date;
  /** The stored path (the view signs it for the viewer). */
  path: string;
}

/**
 * Every photo of the author's sessions, one row each, with its place in its
 * session (`ord`): the `photos` list, or the one `photo` of a row logged
 * before the list (views.ts photosOf reads a row the same way). Through the
 * author index on (user_id, created_at).
 */
const photosOfAuthor = (userId: string): Sql => sql`
  SELECT s.id, s.title, s.created_at, p.path, p.ord
    FROM beer_sessions s
   CROSS JOIN LATERAL unnest(CASE WHEN cardinality(s.photos) > 0 THEN s.photos WHEN s.photo IS NOT NULL THEN ARRAY[s.photo] ELSE '{}'::text[] END)
         WITH ORDINALITY AS p(path, ord)
   WHERE s.user_id = ${uuid(userId)}`;

/** The session photos of one author (the Photos screen's 'Session photos'). */
export const sessionPhotosRepository = {
  /** A page: newest session first, each session's photos in the order picked. */
  list(db: Db, userId: string, page: Page): Promise<SessionPhotoRow[]> {
    return queryRows<SessionPhotoRow[]>(
      db,
      sql`SELECT a.id::text AS session_id, a.title, a.created_at, a.path FROM (${photosOfAuthor(userId)}) a
        ORDER BY a.created_at DESC, a.id DESC, a.ord LIMIT ${page.limit} OFFSET ${page.offset}`,
    );
  },

  async count(db: Db, userId: string): Promise<number> {
    const [row] = await queryRows<Array<{ total: number }>>(db, sql`SELECT count(*)::int AS total FROM (${photosOfAuthor(userId)}) a`);
    return row?.total ?? 0;
  },
};
