import { executeSql, identifier, newerSnapshot, queryRows, sql, type Sql, type SqlClient } from '@hoptrack/runtime';

/**
 * The facts progress is computed from (session_facts, review_facts,
 * photo_facts), kept from other services' events. A deleted fact is kept as
 * a tombstone (`deleted`), so a late create cannot bring it back.
 */

export type FactTable = 'session_facts' | 'review_facts' | 'photo_facts';
const FACT_TABLES: readonly FactTable[] = ['session_facts', 'review_facts', 'photo_facts'];

/** A session's facts, as its newest event gives them. */
export interface SessionFact {
  sessionId: string;
  userId: string;
  styles: string[];
  place: string | null;
  hasMusic: boolean;
  beerCount: number;
  duration: number;
  createdAt: string;
  updatedAt: string;
  /** The session's version (0: an event published before versions): what orders two of its events. */
  version: number;
}

/** Each table's key column. */
const KEYS: Record<FactTable, Sql> = { session_facts: identifier('session_id'), review_facts: identifier('review_id'), photo_facts: identifier('photo_id') };

export const factsRepository = {
  /** A session's newest state (by version); an older update, or a create after its delete (the tombstone), changes nothing. */
  async saveSession(db: SqlClient, f: SessionFact): Promise<void> {
    await executeSql(
      db,
      sql`INSERT INTO session_facts (session_id, user_id, beer_types, place, has_music, beer_count, duration, created_at, updated_at, version)
       VALUES (${f.sessionId}::uuid, ${f.userId}::uuid, ${f.styles}::text[], ${f.place}, ${f.hasMusic}, ${f.beerCount}, ${f.duration}, ${f.createdAt}::timestamptz, ${f.updatedAt}::timestamptz, ${f.version}::int)
       ON CONFLICT (session_id) DO UPDATE SET beer_types = EXCLUDED.beer_types, place = EXCLUDED.place, has_music = EXCLUDED.has_music,
         beer_count = EXCLUDED.beer_count, duration = EXCLUDED.duration, updated_at = EXCLUDED.updated_at, version = EXCLUDED.version
       WHERE NOT session_facts.deleted AND ${newerSnapshot('session_facts')}`,
    );
  },

  /** Marks the fact deleted, inserting the tombstone if the fact never arrived; when the fact happened (`at` for a new tombstone). */
  async tombstone(db: SqlClient, table: FactTable, id: string, userId: string, at: Date): Promise<Date | undefined> {
    const when = at.toISOString();
    // A session's tombstone needs values for its other required columns.
    const [extra, values] = table === 'session_facts' ? [sql`, beer_count, duration, updated_at`, sql`, 0, 0, ${when}::timestamptz`] : [sql``, sql``];
    const key = KEYS[table];
    const rows = await queryRows<Array<{ created_at: Date }>>(
      db,
      sql`INSERT INTO ${identifier(table)} (${key}, user_id, created_at, deleted${extra}) VALUES (${id}::uuid, ${userId}::uuid, ${when}::timestamptz, true${values})
       ON CONFLICT (${key}) DO UPDATE SET deleted = true RETURNING created_at`,
    );
    return rows[0]?.created_at;
  },

  /** A review or an album photo: a fact of when, never changed after. */
  async record(db: SqlClient, table: 'review_facts' | 'photo_facts', id: string, userId: string, at: Date): Promise<void> {
    const key = KEYS[table];
    await executeSql(
      db,
      sql`INSERT INTO ${identifier(table)} (${key}, user_id, created_at) VALUES (${id}::uuid, ${userId}::uuid, ${at.toISOString()}::timestamptz) ON CONFLICT (${key}) DO NOTHING`,
    );
  },

  /** Every fact of the person, tombstones included. */
  async deleteOwnedBy(db: SqlClient, userId: string): Promise<void> {
    for (const table of FACT_TABLES) {
      await executeSql(db, sql`DELETE FROM ${identifier(table)} WHERE user_id = ${userId}::uuid`);
    }
  },
};
