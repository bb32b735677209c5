import { randomUUID } from 'node:crypto';
import { NOTIFICATION_KINDS, type NotificationKind } from '@hoptrack/proto';
import type { SqlClient } from '@hoptrack/runtime';
import { entriesRepository } from '../repositories/entries.repository';
import { inboxRepository } from '../repositories/inbox.repository';

/**
 * The write side of the inbox. An event adds a contribution to the entry of
 * its (recipient, kind, target) group, or takes one back; every method answers
 * the recipients whose inbox changed, so the caller can tell their bells.
 * All of it runs in the consumer's inbox transaction: a replayed event is
 * skipped whole, and `sourceId` makes even a re-run add nothing twice.
 */

/** A contribution joins the newest entry of its (group, target) while that entry is unread or this fresh. */
export const GROUP_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Entries a person keeps; older ones go when a new one arrives. */
export const INBOX_MAX = 500;
/** Read entries older than this go too. */
export const READ_ENTRY_TTL_DAYS = 90;

export interface Contribution {
  recipientId: string;
  kind: NotificationKind;
  targetId: string;
  actorId: string;
  /** What caused it: the comment, message, friendship or invitation id, or `emoji:actor` for a reaction. */
  sourceId: string;
  at: Date;
}

export interface Retraction {
  kind: NotificationKind;
  targetId: string;
  sourceId: string;
  /** Only this recipient's entry (a friend request); all recipients' when absent (a comment's followers). */
  recipientId?: string;
}

/**
 * Kinds about the recipient's own doing ("You completed …"): their actor is
 * the recipient, which for every other kind means nothing to tell.
 */
const OWN_DOING: ReadonlySet<NotificationKind> = new Set<NotificationKind>(['challenge.completed']);

/** Told of each contribution that joined an entry, in the same transaction (the mail digests). */
export type OnAdded = (tx: SqlClient, entryId: string, contribution: Contribution) => Promise<void>;

export class InboxWriter {
  constructor(private readonly onAdded?: OnAdded) {}

  /** Adds the contribution unless it is the recipient's own (but for OWN_DOING kinds), its kind is off, or the actor is blocked or muted. */
  async add(tx: SqlClient, c: Contribution): Promise<string[]> {
    if (c.recipientId === c.actorId && !OWN_DOING.has(c.kind)) return [];
    if (!(await entriesRepository.acceptsContribution(tx, c.recipientId, c.actorId, c.kind))) return [];
    const group = NOTIFICATION_KINDS[c.kind].group;
    // Two instances may handle two likes of one session at once: one group, one entry.
    await entriesRepository.lockGroup(tx, c.recipientId, group, c.targetId);
    let entryId = await entriesRepository.findOpenEntry(tx, c.recipientId, group, c.targetId, new Date(c.at.getTime() - GROUP_WINDOW_MS));
    const fresh = !entryId;
    if (!entryId) {
      entryId = randomUUID();
      await entriesRepository.createEntry(tx, { id: entryId, userId: c.recipientId, group, targetId: c.targetId, at: c.at });
    }
    const added = await entriesRepository.addContribution(tx, entryId, c);
    if (added === 0 && !fresh) return [];
    await entriesRepository.reopenEntry(tx, entryId, c.at);
    if (added > 0) await this.onAdded?.(tx, entryId, c);
    if (fresh) await entriesRepository.trimInbox(tx, c.recipientId, READ_ENTRY_TTL_DAYS, INBOX_MAX);
    return [c.recipientId];
  }

  /** Takes a contribution back (an unlike, a deleted comment); an entry left with nobody goes. */
  retract(tx: SqlClient, r: Retraction): Promise<string[]> {
    return entriesRepository.deleteContribution(tx, { ...r, recipientId: r.recipientId ?? null });
  }

  /** Every entry about the target, for everyone (a deleted session), or one recipient's entry of one group (a read conversation). */
  async dropTarget(tx: SqlClient, targetId: string, only?: { kind: NotificationKind; recipientId: string }): Promise<string[]> {
    const recipients = await entriesRepository.deleteAboutTarget(tx, targetId, only ? NOTIFICATION_KINDS[only.kind].group : null, only?.recipientId ?? null);
    return [...new Set(recipients)];
  }
}

/** The unread counts of the recipients whose inbox changed, for their `notification.changed.v1` events. */
export async function countsOf(tx: SqlClient, userIds: readonly string[]): Promise<Array<{ userId: string; unreadCount: number }>> {
  const counts: Array<{ userId: string; unreadCount: number }> = [];
  // One after the other: a transaction is one connection.
  for (const userId of new Set(userIds)) counts.push({ userId, unreadCount: await inboxRepository.unreadCount(tx, userId) });
  return counts;
}
