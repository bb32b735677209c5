import { NOTIFICATION_ACTORS_SHOWN, type NotificationKind } from '@hoptrack/proto';
import { queryRows, sql, uuid, type Sql, type SqlClient } from '@hoptrack/runtime';
import { inboxSql } from '../domain/visibility';

/**
 * The reads of an inbox, under its visibility rules (domain/visibility.ts):
 * the unread count, a page of entries, and what an export shows. Each takes
 * the client, a transaction, or the hot reads' named-statement client (SqlClient).
 */

export interface EntryRow {
  id: string;
  /** The newest visible contribution's kind. */
  kind: NotificationKind;
  kinds: NotificationKind[];
  target_id: string;
  read: boolean;
  updated_at: Date;
  /** The session's (session entries). */
  title: string | null;
  owner_id: string | null;
  /** The challenge's (challenge entries). */
  challenge_title: string | null;
  actor_ids: string[];
  actor_count: number;
  contributions: number;
}

/** An entry as an export shows it, with the title of the session or challenge it may be about. */
export interface ExportEntryRow {
  id: string;
  target_id: string;
  read: boolean;
  created_at: Date;
  updated_at: Date;
  session_title: string | null;
  challenge_title: string | null;
}

export interface ContributionRow {
  notification_id: string;
  kind: NotificationKind;
  actor_id: string;
  at: Date;
}

/**
 * An entry with the session it is about (when it is about one): visibility
 * needs its owner. The challenge an entry is about only gives words, so it is
 * joined to the chosen page alone (listEntries).
 */
const ENTRIES = sql`"notifications" n LEFT JOIN "session_refs" sr ON sr.session_id = n.target_id`;
/** The reader's entries they may see. */
const readersVisible = (userId: string): Sql => sql`n.user_id = ${uuid(userId)} AND ${inboxSql.entryVisible()}`;

export const inboxRepository = {
  async unreadCount(db: SqlClient, userId: string): Promise<number> {
    const [row] = await queryRows<Array<{ count: number }>>(db, sql`SELECT count(*)::int AS "count" FROM ${ENTRIES} WHERE ${readersVisible(userId)} AND NOT n.read`);
    return row?.count ?? 0;
  },

  /**
   * The one query of entries: `filter.where` is the caller's condition on the
   * entry `n`, a fragment with its own values. The page is chosen first
   * (visibility, order, limit: the index on (user_id, updated_at, id) walks the
   * newest entries), and only its rows are
   * then aggregated into their people and kinds: aggregating every entry of the
   * inbox before the sort made a page cost the whole inbox (18 ms of Postgres
   * at 150 entries, against 6 ms this way; docs/benchmarks.md).
   */
  listEntries(db: SqlClient, userId: string, filter: { where: Sql; limit: number }): Promise<EntryRow[]> {
    return queryRows<EntryRow[]>(
      db,
      sql`WITH page AS MATERIALIZED (
       SELECT n.id, n.user_id, n.target_id, n.read, n.updated_at, sr.title, sr.owner_id
         FROM ${ENTRIES}
        WHERE ${readersVisible(userId)} AND ${filter.where}
        ORDER BY n.updated_at DESC, n.id DESC
        LIMIT ${filter.limit}
     )
     SELECT n.id::text AS "id", people.kind, kinds_of.kinds, n.target_id::text AS "target_id", n.read, n.updated_at, n.title, n.owner_id::text AS "owner_id",
            cr.title AS "challenge_title", people.actor_ids, people.actor_count, people.contributions
       FROM page n LEFT JOIN "challenge_refs" cr ON cr.challenge_id = n.target_id
       CROSS JOIN LATERAL (
         SELECT (array_agg(v.actor_id::text ORDER BY v.last_at DESC))[1:${NOTIFICATION_ACTORS_SHOWN}::int] AS actor_ids,
                count(*)::int AS actor_count, COALESCE(sum(v.n), 0)::int AS contributions,
                (array_agg(v.last_kind ORDER BY v.last_at DESC))[1] AS kind
           FROM (SELECT a.actor_id, max(a.at) AS last_at, count(*) AS n, (array_agg(a.kind ORDER BY a.at DESC))[1] AS last_kind
                   FROM "notification_actors" a
                  WHERE a.notification_id = n.id AND ${inboxSql.actorVisible('a', 'n')} GROUP BY a.actor_id) v
       ) people
       CROSS JOIN LATERAL (
         SELECT array_agg(DISTINCT a.kind) AS kinds FROM "notification_actors" a WHERE a.notification_id = n.id AND ${inboxSql.actorVisible('a', 'n')}
       ) kinds_of
      ORDER BY n.updated_at DESC, n.id DESC`,
    );
  },

  /** Every entry of the person they may see, newest first, with the title of what it is about. */
  exportEntries(db: SqlClient, userId: string): Promise<ExportEntryRow[]> {
    return queryRows<ExportEntryRow[]>(
      db,
      sql`SELECT n.id::text AS "id", n.target_id::text AS "target_id", n.read, n.created_at, n.updated_at,
              sr.title AS "session_title", cr.title AS "challenge_title"
         FROM "notifications" n
         LEFT JOIN "session_refs" sr ON sr.session_id = n.target_id
         LEFT JOIN "challenge_refs" cr ON cr.challenge_id = n.target_id
        WHERE n.user_id = ${uuid(userId)} AND ${inboxSql.entryVisible()}
        ORDER BY n.updated_at DESC, n.id DESC`,
    );
  },

  /** Every contribution the person may see in their inbox, newest first. */
  exportContributions(db: SqlClient, userId: string): Promise<ContributionRow[]> {
    return queryRows<ContributionRow[]>(
      db,
      sql`SELECT a.notification_id::text AS "notification_id", a.kind, a.actor_id::text AS "actor_id", a.at
         FROM "notification_actors" a JOIN "notifications" n ON n.id = a.notification_id
        WHERE n.user_id = ${uuid(userId)} AND ${inboxSql.actorVisible('a', 'n')}
        ORDER BY a.at DESC, a.kind, a.source_id`,
    );
  },
};
