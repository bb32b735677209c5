import { NOTIFICATION_ACTORS_SHOWN, NOTIFICATION_KIND_NAMES, NOTIFICATION_KINDS, type ExportPart, type NotificationKind } from '@hoptrack/proto';
import { peopleByIds, queryRows, sql, uuid } from '@hoptrack/runtime';
import type { Db } from '../db';
import { notificationText } from './texts';
import { inboxSql } from './visibility';

interface EntryRow {
  id: string;
  target_id: string;
  read: boolean;
  created_at: Date;
  updated_at: Date;
  session_title: string | null;
  challenge_title: string | null;
}

interface ContributionRow {
  notification_id: string;
  kind: NotificationKind;
  actor_id: string;
  at: Date;
}

/**
 * Notifications' part of a data export (issue 24): the person's inbox as
 * they may see it (the inbox's own visibility rules: nothing from someone in
 * a block with them or muted, nothing of a kind turned off), each entry with
 * its words and every contribution in it (what, by whom — id, username,
 * display name — and when), and their notification settings for every kind
 * (a kind never changed shows its default).
 */
export async function exportNotifications(db: Db, userId: string): Promise<Omit<ExportPart, 'service'>> {
  const [entries, contributions, settings] = await Promise.all([
    queryRows<EntryRow[]>(
      db,
      sql`SELECT n.id::text AS "id", n.target_id::text AS "target_id", n.read, n.created_at, n.updated_at,
              sr.title AS "session_title", cr.title AS "challenge_title"
         FROM "notifications" n
         LEFT JOIN "session_refs" sr ON sr.session_id = n.target_id
         LEFT JOIN "challenge_refs" cr ON cr.challenge_id = n.target_id
        WHERE n.user_id = ${uuid(userId)} AND ${inboxSql.entryVisible()}
        ORDER BY n.updated_at DESC, n.id DESC`,
    ),
    queryRows<ContributionRow[]>(
      db,
      sql`SELECT a.notification_id::text AS "notification_id", a.kind, a.actor_id::text AS "actor_id", a.at
         FROM "notification_actors" a JOIN "notifications" n ON n.id = a.notification_id
        WHERE n.user_id = ${uuid(userId)} AND ${inboxSql.actorVisible('a', 'n')}
        ORDER BY a.at DESC, a.kind, a.source_id`,
    ),
    db.notificationSetting.findMany({ where: { userId } }),
  ]);
  const people = await peopleByIds(db, contributions.map((c) => c.actor_id));
  const byEntry = new Map<string, ContributionRow[]>();
  for (const c of contributions) byEntry.set(c.notification_id, [...(byEntry.get(c.notification_id) ?? []), c]);
  const chosen = new Map(settings.map((row) => [row.kind, row]));

  return {
    data: {
      inbox: entries.flatMap((entry) => {
        const mine = byEntry.get(entry.id) ?? [];
        const newest = mine[0];
        if (!newest) return [];
        const kinds = NOTIFICATION_KIND_NAMES.filter((kind) => mine.some((c) => c.kind === kind));
        const actorIds = [...new Set(mine.map((c) => c.actor_id))];
        const target = NOTIFICATION_KINDS[newest.kind].target;
        const title = target === 'session' ? entry.session_title : target === 'challenge' ? entry.challenge_title : null;
        return [
          {
            id: entry.id,
            kinds,
            text: notificationText({
              kind: newest.kind,
              kinds,
              names: actorIds.slice(0, NOTIFICATION_ACTORS_SHOWN).map((id) => people.get(id)?.displayName ?? 'Someone'),
              actorCount: actorIds.length,
              contributions: mine.length,
              title,
            }),
            target: { type: target, id: entry.target_id, ...(target === 'user' ? {} : { title }) },
            read: entry.read,
            createdAt: entry.created_at.toISOString(),
            updatedAt: entry.updated_at.toISOString(),
            contributions: mine
              .slice()
              .reverse()
              .map((c) => {
                const known = people.get(c.actor_id);
                return { kind: c.kind, by: { id: c.actor_id, username: known?.username ?? null, displayName: known?.displayName ?? null }, at: c.at.toISOString() };
              }),
          },
        ];
      }),
      settings: Object.fromEntries(
        NOTIFICATION_KIND_NAMES.map((kind) => {
          const row = chosen.get(kind);
          return [kind, { label: NOTIFICATION_KINDS[kind].label, inApp: row?.inApp ?? true, email: row?.email ?? NOTIFICATION_KINDS[kind].emailByDefault, changed: row !== undefined }];
        }),
      ),
    },
    files: [],
  };
}
