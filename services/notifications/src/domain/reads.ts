import {
  NOTIFICATION_ACTORS_SHOWN,
  NOTIFICATION_KIND_NAMES,
  NOTIFICATION_KINDS,
  type Notification,
  type NotificationActor,
  type NotificationKind,
} from '@hoptrack/proto';
import { decodeTimeCursor, encodeTimeCursor, queryRows, sql, uuid, type Sql, type SqlClient } from '@hoptrack/runtime';
import { notificationText } from './texts';
import { inboxSql } from './visibility';

/** The read side: a page of the inbox and the unread count, under the same visibility rules. */

interface EntryRow {
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

interface PersonRow {
  id: string;
  username: string;
  display_name: string;
  profile_picture: string | null;
  avatar: string | null;
}

/**
 * An entry with the session it is about (when it is about one): visibility
 * needs its owner. The challenge an entry is about only gives words, so it is
 * joined to the chosen page alone (entryRows).
 */
const ENTRIES = sql`"notifications" n LEFT JOIN "session_refs" sr ON sr.session_id = n.target_id`;
/** The reader's entries they may see. */
const readersVisible = (userId: string): Sql => sql`n.user_id = ${uuid(userId)} AND ${inboxSql.entryVisible()}`;

export async function unreadCount(db: SqlClient, userId: string): Promise<number> {
  const [row] = await queryRows<Array<{ count: number }>>(db, sql`SELECT count(*)::int AS "count" FROM ${ENTRIES} WHERE ${readersVisible(userId)} AND NOT n.read`);
  return row?.count ?? 0;
}

export interface InboxPage {
  items: Notification[];
  next: string | null;
}

/** Newest activity first; each entry with its newest visible actors, their count and its words. */
export async function listInbox(db: SqlClient, userId: string, cursorText: string | undefined, limit: number): Promise<InboxPage> {
  const cursor = decodeTimeCursor(cursorText);
  const rows = await entryRows(db, userId, {
    where: cursor ? sql`(n.updated_at, n.id) < (${new Date(cursor.at)}::timestamptz, ${uuid(cursor.id)})` : sql`TRUE`,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const items = await toNotifications(db, page);
  const last = page.at(-1);
  return { items, next: rows.length > limit && last ? encodeTimeCursor({ at: last.updated_at, id: last.id }) : null };
}

/** The reader's entries with these ids, as the list shows them (those the reader may still see), newest first. */
export async function entriesByIds(db: SqlClient, userId: string, ids: readonly string[]): Promise<Notification[]> {
  if (ids.length === 0) return [];
  const rows = await entryRows(db, userId, { where: sql`n.id = ANY(${[...new Set(ids)]}::uuid[])`, limit: ids.length });
  return toNotifications(db, rows);
}

/**
 * The one query of entries: `filter.where` is the caller's condition on the
 * entry `n`, a fragment with its own values. The page is chosen first
 * (visibility, order, limit: the index on (user_id, updated_at, id) walks the
 * newest entries), and only its rows are
 * then aggregated into their people and kinds: aggregating every entry of the
 * inbox before the sort made a page cost the whole inbox (18 ms of Postgres
 * at 150 entries, against 6 ms this way; docs/benchmarks.md).
 */
async function entryRows(db: SqlClient, userId: string, filter: { where: Sql; limit: number }): Promise<EntryRow[]> {
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
}

async function toNotifications(db: SqlClient, rows: readonly EntryRow[]): Promise<Notification[]> {
  const people = await peopleById(db, rows.flatMap((row) => row.actor_ids));
  return rows.map((row) => toNotification(row, people));
}

async function peopleById(db: SqlClient, ids: readonly string[]): Promise<Map<string, NotificationActor>> {
  if (ids.length === 0) return new Map();
  const rows = await db.$queryRawUnsafe<PersonRow[]>(
    `SELECT id::text AS "id", username, display_name, profile_picture, avatar FROM "users" WHERE id = ANY($1::uuid[])`,
    [...new Set(ids)],
  );
  return new Map(
    rows.map((p) => [p.id, { id: p.id, username: p.username, displayName: p.display_name, profilePicture: p.profile_picture, avatar: p.avatar }]),
  );
}

function toNotification(row: EntryRow, people: Map<string, NotificationActor>): Notification {
  const actors = row.actor_ids.flatMap((id) => people.get(id) ?? []);
  const target = targetOf(row);
  return {
    id: row.id,
    kind: row.kind,
    kinds: NOTIFICATION_KIND_NAMES.filter((kind) => row.kinds.includes(kind)),
    actors,
    actorCount: row.actor_count,
    target,
    text: notificationText({
      kind: row.kind,
      kinds: row.kinds,
      names: actors.map((a) => a.displayName),
      actorCount: row.actor_count,
      contributions: row.contributions,
      title: 'title' in target ? target.title : null,
    }),
    createdAt: row.updated_at.toISOString(),
    read: row.read,
  };
}

/** What the entry points at, by its kind's target type (the kinds of one group share it). */
function targetOf(row: EntryRow): Notification['target'] {
  switch (NOTIFICATION_KINDS[row.kind].target) {
    case 'session':
      return { type: 'session', id: row.target_id, title: row.title, ownerId: row.owner_id };
    case 'challenge':
      return { type: 'challenge', id: row.target_id, title: row.challenge_title };
    case 'user':
      return { type: 'user', id: row.target_id };
  }
}
