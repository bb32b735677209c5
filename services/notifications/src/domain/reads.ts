import { NOTIFICATION_KIND_NAMES, NOTIFICATION_KINDS, type Notification, type NotificationActor, type NotificationKind } from '@hoptrack/proto';
import { decodeTimeCursor, encodeTimeCursor, joinSql, sql, uuid, type Sql, type SqlClient } from '@hoptrack/runtime';
import { inboxRepository, type EntryRow } from '../repositories/inbox.repository';
import { peopleRepository } from '../repositories/people.repository';
import { notificationText } from './texts';
import { inboxSql } from './visibility';

/** The read side: a page of the inbox, under its visibility rules (the unread count, under the same: inboxRepository.unreadCount). */

export interface InboxPage {
  items: Notification[];
  next: string | null;
}

/** What a page of the inbox may be narrowed to: read state, and the kinds of contribution an entry holds. */
export interface InboxFilter {
  unread?: boolean;
  kinds?: readonly NotificationKind[];
}

/** Newest activity first; each entry with its newest visible actors, their count and its words. */
export async function listInbox(db: SqlClient, userId: string, cursorText: string | undefined, limit: number, filter: InboxFilter = {}): Promise<InboxPage> {
  const cursor = decodeTimeCursor(cursorText);
  const conditions: Sql[] = [];
  if (cursor) conditions.push(sql`(n.updated_at, n.id) < (${new Date(cursor.at)}::timestamptz, ${uuid(cursor.id)})`);
  if (filter.unread !== undefined) conditions.push(filter.unread ? sql`NOT n.read` : sql`n.read`);
  if (filter.kinds?.length) conditions.push(inboxSql.holdsKinds(filter.kinds));
  const rows = await inboxRepository.listEntries(db, userId, { where: conditions.length ? joinSql(conditions, ' AND ') : sql`TRUE`, limit: limit + 1 });
  const page = rows.slice(0, limit);
  const items = await toNotifications(db, page);
  const last = page.at(-1);
  return { items, next: rows.length > limit && last ? encodeTimeCursor({ at: last.updated_at, id: last.id }) : null };
}

/** The reader's entries with these ids, as the list shows them (those the reader may still see), newest first. */
export async function entriesByIds(db: SqlClient, userId: string, ids: readonly string[]): Promise<Notification[]> {
  if (ids.length === 0) return [];
  const rows = await inboxRepository.listEntries(db, userId, { where: sql`n.id = ANY(${[...new Set(ids)]}::uuid[])`, limit: ids.length });
  return toNotifications(db, rows);
}

async function toNotifications(db: SqlClient, rows: readonly EntryRow[]): Promise<Notification[]> {
  const people = await peopleById(db, rows.flatMap((row) => row.actor_ids));
  return rows.map((row) => toNotification(row, people));
}

async function peopleById(db: SqlClient, ids: readonly string[]): Promise<Map<string, NotificationActor>> {
  if (ids.length === 0) return new Map();
  const rows = await peopleRepository.findByIds(db, [...new Set(ids)]);
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
