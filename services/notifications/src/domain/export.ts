import { NOTIFICATION_ACTORS_SHOWN, NOTIFICATION_KIND_NAMES, NOTIFICATION_KINDS, type ExportPart } from '@hoptrack/proto';
import { peopleByIds } from '@hoptrack/runtime';
import type { Db } from '../db';
import { inboxRepository, type ContributionRow } from '../repositories/inbox.repository';
import { settingsRepository } from '../repositories/settings.repository';
import { notificationText } from './texts';

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
    inboxRepository.exportEntries(db, userId),
    inboxRepository.exportContributions(db, userId),
    settingsRepository.listFor(db, userId),
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
