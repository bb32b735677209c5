import {
  NOTIFICATION_KIND_NAMES,
  NOTIFICATION_KINDS,
  type MarkReadBody,
  type NotificationKind,
  type NotificationSettings,
  type NotificationSettingsBody,
} from '@hoptrack/proto';
import { anyErased, notFound, type Outbox, type SqlClient } from '@hoptrack/runtime';
import type { PrismaClient } from '../db';
import { entriesRepository } from '../repositories/entries.repository';
import { inboxRepository } from '../repositories/inbox.repository';
import { settingsRepository } from '../repositories/settings.repository';
import { countsOf } from './inbox';
import { listInbox, type InboxFilter, type InboxPage } from './reads';

export interface NotificationsDeps {
  prisma: PrismaClient;
  /** The inbox's hot reads by named statement (db.ts); writes and transactions go through Prisma. */
  reads: SqlClient;
  outbox: Outbox;
  /** After a commit that wrote events: the relay sends them now rather than at its next poll. */
  onEventsCommitted: () => void;
}

/** What the API does with a person's own inbox and settings. */
export class Notifications {
  constructor(private readonly deps: NotificationsDeps) {}

  list(userId: string, cursor: string | undefined, limit: number, filter?: InboxFilter): Promise<InboxPage> {
    return listInbox(this.deps.reads, userId, cursor, limit, filter);
  }

  unreadCount(userId: string): Promise<number> {
    return inboxRepository.unreadCount(this.deps.reads, userId);
  }

  /**
   * Marks the named entries (or all) read. An id that is not one of the
   * reader's entries answers 404 and changes nothing: someone else's
   * notification is indistinguishable from none.
   */
  async markRead(userId: string, body: MarkReadBody, requestId?: string): Promise<number> {
    const updated = await this.deps.prisma.$transaction(async (tx) => {
      let count: number;
      if ('all' in body) {
        count = await entriesRepository.markAllRead(tx, userId);
      } else {
        const ids = [...new Set(body.ids)];
        const owned = await entriesRepository.lockOwnedEntries(tx, userId, ids);
        if (owned.length < ids.length) throw notFound('Notification not found');
        count = await entriesRepository.markRead(tx, owned.filter((o) => !o.read).map((o) => o.id));
      }
      if (count > 0) await this.announce(tx, [userId], requestId);
      return count;
    });
    if (updated > 0) this.deps.onEventsCommitted();
    return updated;
  }

  /**
   * Marks one of the reader's entries unread again (it is back in the
   * bell's count); one that is not theirs answers 404, as markRead's does.
   * An unread entry stays as it is (0 updated, no announcement).
   */
  async markUnread(userId: string, id: string, requestId?: string): Promise<number> {
    const updated = await this.deps.prisma.$transaction(async (tx) => {
      const [owned] = await entriesRepository.lockOwnedEntries(tx, userId, [id]);
      if (!owned) throw notFound('Notification not found');
      const count = owned.read ? await entriesRepository.markUnread(tx, owned.id) : 0;
      if (count > 0) await this.announce(tx, [userId], requestId);
      return count;
    });
    if (updated > 0) this.deps.onEventsCommitted();
    return updated;
  }

  async settings(userId: string): Promise<NotificationSettings> {
    const rows = await settingsRepository.listFor(this.deps.prisma, userId);
    const chosen = new Map(rows.map((row) => [row.kind, row]));
    const kinds = Object.fromEntries(
      NOTIFICATION_KIND_NAMES.map((kind) => {
        const row = chosen.get(kind);
        return [kind, { inApp: row?.inApp ?? true, email: row?.email ?? NOTIFICATION_KINDS[kind].emailByDefault, label: NOTIFICATION_KINDS[kind].label }];
      }),
    ) as NotificationSettings['kinds'];
    return { kinds };
  }

  /** Changes the kinds named; turning a kind off in-app hides its entries (and its unread ones leave the count). */
  async updateSettings(userId: string, body: NotificationSettingsBody, requestId?: string): Promise<NotificationSettings> {
    const changes = Object.entries(body.kinds) as Array<[NotificationKind, { inApp: boolean; email: boolean }]>;
    await this.deps.prisma.$transaction(async (tx) => {
      for (const [kind, setting] of changes) {
        await settingsRepository.save(tx, userId, kind, setting);
      }
      // The count may have changed: the bell hears of it.
      if (changes.length > 0) await this.announce(tx, [userId], requestId);
    });
    if (changes.length > 0) this.deps.onEventsCommitted();
    return this.settings(userId);
  }

  /** Every kind's e-mail off (an unsubscribe link); in-app stays as it was. */
  async stopEmail(userId: string, requestId?: string): Promise<void> {
    // An erased person's old link (their token is still well signed) must not write settings naming them again.
    if (await anyErased(this.deps.prisma, [userId])) return;
    const current = await this.settings(userId);
    const kinds = Object.fromEntries(
      Object.entries(current.kinds).map(([kind, setting]) => [kind, { inApp: setting.inApp, email: false }]),
    ) as NotificationSettingsBody['kinds'];
    await this.updateSettings(userId, { kinds }, requestId);
  }

  private async announce(tx: SqlClient, userIds: readonly string[], requestId?: string): Promise<void> {
    await announceChanges(this.deps.outbox, tx, userIds, requestId);
  }
}

/** One `notification.changed.v1` per person whose inbox changed, with their new unread count, in the caller's transaction. */
export async function announceChanges(outbox: Outbox, tx: SqlClient, userIds: readonly string[], requestId?: string): Promise<void> {
  for (const change of await countsOf(tx, userIds)) await outbox.enqueue(tx, 'notification.changed.v1', change, requestId);
}
