import { queryRows, sql, uuid, type OutboxValues, type Sql } from '@hoptrack/runtime';
import type { BeerSession, Db, Prisma, PreparedSql } from '../db';

export interface Page {
  limit: number;
  offset: number;
}

/** A session with everything others left on it, oldest first (the data export). */
export type SessionWithInteractions = Prisma.BeerSessionGetPayload<{ include: { likes: true; comments: true; reactions: true } }>;

const OLDEST_FIRST = [{ createdAt: 'asc' }, { id: 'asc' }] satisfies Prisma.BeerSessionOrderByWithRelationInput[];
const NEWEST_FIRST = [{ createdAt: 'desc' }, { id: 'desc' }] satisfies Prisma.BeerSessionOrderByWithRelationInput[];

/**
 * A create is one statement: the session and its event (a data-modifying CTE
 * commits both or neither), sent by name. It was a Prisma transaction of four
 * round trips (BEGIN, INSERT, INSERT, COMMIT), the largest cost of a create.
 * The event's payload is not built in SQL: it is facts() of the same
 * in-memory row the INSERT writes, so a field added to facts() reaches
 * session.created.v1 here too. `musicTrack`: the track as JSON, or null.
 */
const createSql = (s: BeerSession, musicTrack: string | null, [eventId, subject, payload, people]: OutboxValues): Sql => sql`WITH created AS (
    INSERT INTO beer_sessions (id, user_id, title, description, beer_count, duration, avg_abv, beer_types, photo, photos, location, latitude, longitude, music_track, created_at, updated_at)
    VALUES (${uuid(s.id)}, ${uuid(s.userId)}, ${s.title}, ${s.description}, ${s.beerCount}, ${s.duration}, ${s.avgAbv}, ${s.beerTypes}::text[], ${s.photo}, ${s.photos}::text[],
            ${s.location}, ${s.latitude}, ${s.longitude}, ${musicTrack}::jsonb, ${s.createdAt}, ${s.updatedAt})
  )
  INSERT INTO outbox (id, subject, payload, people) VALUES (${uuid(eventId)}, ${subject}, ${payload}::jsonb, ${people}::uuid[])`;

/** Reads and writes of the beer_sessions table. */
export const sessionsRepository = {
  /** Writes the session and its event in one named statement (no transaction needed: one statement commits both or neither). */
  async createWithEvent(prepared: PreparedSql, session: BeerSession, musicTrack: string | null, event: OutboxValues): Promise<void> {
    await prepared.query('session-create', createSql(session, musicTrack, event));
  },

  /** The session's author, if the session exists and `visible` (a condition on the session row `s`) holds for it; null otherwise. */
  async findAuthorWhere(db: Db, sessionId: string, visible: Sql): Promise<string | null> {
    const rows = await queryRows<Array<{ user_id: string }>>(db, sql`SELECT s.user_id FROM beer_sessions s WHERE s.id = ${uuid(sessionId)} AND ${visible}`);
    return rows[0]?.user_id ?? null;
  },

  findByIds(db: Db, ids: string[]): Promise<BeerSession[]> {
    return db.beerSession.findMany({ where: { id: { in: ids } } });
  },

  /** The edit, and the session's version incremented in the same statement: its events are ordered by it (issue 38). */
  update(db: Db, id: string, data: Prisma.BeerSessionUpdateInput): Promise<BeerSession> {
    return db.beerSession.update({ where: { id }, data: { ...data, version: { increment: 1 } } });
  },

  /** Deletes the session; what others left on it goes with it (cascade). */
  async delete(db: Db, id: string): Promise<void> {
    await db.beerSession.delete({ where: { id } });
  },

  /** The author's session ids, newest first. */
  async listIdsByAuthor(db: Db, userId: string, page: Page): Promise<string[]> {
    const rows = await db.beerSession.findMany({ select: { id: true }, where: { userId }, orderBy: NEWEST_FIRST, take: page.limit, skip: page.offset });
    return rows.map((r) => r.id);
  },

  /** The author's sessions, newest first. */
  listByAuthor(db: Db, userId: string, page: Page): Promise<BeerSession[]> {
    return db.beerSession.findMany({ where: { userId }, orderBy: NEWEST_FIRST, take: page.limit, skip: page.offset });
  },

  /**
   * Of `paths` (stored photos of `owners`), the ones a session of theirs names.
   * Found through the author index: a photo's key names its owner, so the cost
   * follows the owners' sessions, and no index on the photo arrays is kept
   * (it would cost every create a GIN update for a question the orphan sweep
   * asks every few minutes).
   */
  async namedPaths(db: Db, owners: string[], paths: string[]): Promise<string[]> {
    const rows = await queryRows<Array<{ path: string }>>(
      db,
      sql`SELECT DISTINCT p.path FROM beer_sessions s CROSS JOIN LATERAL unnest(array_append(s.photos, s.photo)) AS p(path)
          WHERE s.user_id = ANY(${owners}::uuid[]) AND p.path = ANY(${paths}::text[])`,
    );
    return rows.map((row) => row.path);
  },

  /** Every session of the author, oldest first, each with its likes, comments and reactions oldest first. */
  listWithInteractionsByAuthor(db: Db, userId: string): Promise<SessionWithInteractions[]> {
    return db.beerSession.findMany({
      where: { userId },
      orderBy: OLDEST_FIRST,
      include: { likes: { orderBy: OLDEST_FIRST }, comments: { orderBy: OLDEST_FIRST }, reactions: { orderBy: OLDEST_FIRST } },
    });
  },
};
