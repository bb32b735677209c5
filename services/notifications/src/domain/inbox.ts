import { randomUUID } from 'node:crypto';
import { NOTIFICATION_KINDS, type NotificationKind } from '@hoptrack/proto';
import { audienceSql, queryRows, sql, uuid, type SqlClient } from '@hoptrack/runtime';
import { unreadCount } from './reads';

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
    const [recipient, actor] = [uuid(c.recipientId), uuid(c.actorId)];
    const [allowed] = await queryRows<Array<{ ok: boolean }>>(
      tx,
      sql`SELECT NOT EXISTS (SELECT 1 FROM "notification_settings" WHERE user_id = ${recipient} AND kind = ${c.kind} AND NOT in_app)
          AND NOT ${audienceSql.blockedBetween(recipient, actor)} AND NOT ${audienceSql.muted(recipient, actor)} AS "ok"`,
    );
    if (!allowed?.ok) return [];
    const group = NOTIFICATION_KINDS[c.kind].group;
    // Two instances may handle two likes of one session at once: one group, one entry.
    await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock(hashtext($1 || $2 || $3))', c.recipientId, group, c.targetId);
    const [open] = await tx.$queryRawUnsafe<Array<{ id: string }>>(
      `SELECT id::text AS "id" FROM "notifications"
        WHERE user_id = $1::uuid AND group_key = $2 AND target_id = $3::uuid AND (NOT read OR updated_at > $4::timestamptz)
        ORDER BY updated_at DESC LIMIT 1`,
      c.recipientId,
      group,
      c.targetId,
      new Date(c.at.getTime() - GROUP_WINDOW_MS),
    );
    let entryId = open?.id;
    const fresh = !entryId;
    if (!entryId) {
      entryId = randomUUID();
      await tx.$executeRawUnsafe(
        `INSERT INTO "notifications" (id, user_id, group_key, target_id, created_at, updated_at) VALUES ($1::uuid, $2::uuid, $3, $4::uuid, $5, $5)`,
        entryId,
        c.recipientId,
        group,
        c.targetId,
        c.at,
      );
    }
    const added = await tx.$executeRawUnsafe(
      `INSERT INTO "notification_actors" (notification_id, kind, source_id, actor_id, at) VALUES ($1::uuid, $2, $3, $4::uuid, $5) ON CONFLICT DO NOTHING`,
      entryId,
      c.kind,
      c.sourceId,
      c.actorId,
      c.at,
    );
    if (added === 0 && !fresh) return [];
    await tx.$executeRawUnsafe(`UPDATE "notifications" SET read = false, updated_at = GREATEST(updated_at, $2) WHERE id = $1::uuid`, entryId, c.at);
    if (added > 0) await this.onAdded?.(tx, entryId, c);
    if (fresh) await this.trim(tx, c.recipientId);
    return [c.recipientId];
  }

  /** Takes a contribution back (an unlike, a deleted comment); an entry left with nobody goes. */
  async retract(tx: SqlClient, r: Retraction): Promise<string[]> {
    const rows = await tx.$queryRawUnsafe<Array<{ user_id: string }>>(
      `WITH gone AS (
         DELETE FROM "notification_actors" a USING "notifications" n
          WHERE a.notification_id = n.id AND n.target_id = $2::uuid AND a.kind = $1 AND a.source_id = $3
            AND ($4::uuid IS NULL OR n.user_id = $4::uuid)
          RETURNING n.id, n.user_id
       ), emptied AS (
         DELETE FROM "notifications" n USING gone
          WHERE n.id = gone.id
            AND NOT EXISTS (SELECT 1 FROM "notification_actors" a WHERE a.notification_id = n.id AND NOT (a.kind = $1 AND a.source_id = $3))
       )
       SELECT DISTINCT user_id::text AS "user_id" FROM gone`,
      r.kind,
      r.targetId,
      r.sourceId,
      r.recipientId ?? null,
    );
    return rows.map((row) => row.user_id);
  }

  /** Every entry about the target, for everyone (a deleted session), or one recipient's entry of one group (a read conversation). */
  async dropTarget(tx: SqlClient, targetId: string, only?: { kind: NotificationKind; recipientId: string }): Promise<string[]> {
    const rows = await tx.$queryRawUnsafe<Array<{ user_id: string }>>(
      `DELETE FROM "notifications" WHERE target_id = $1::uuid AND ($2::text IS NULL OR group_key = $2) AND ($3::uuid IS NULL OR user_id = $3::uuid)
        RETURNING user_id::text AS "user_id"`,
      targetId,
      only ? NOTIFICATION_KINDS[only.kind].group : null,
      only?.recipientId ?? null,
    );
    return [...new Set(rows.map((row) => row.user_id))];
  }

  /**
   * Keeps an inbox to its newest INBOX_MAX entries and drops read ones older than
   * READ_ENTRY_TTL_DAYS. The cap counts only the entries that stay: an expired read
   * entry among the newest must not push out one more that would have fitted.
   */
  private async trim(tx: SqlClient, userId: string): Promise<void> {
    await tx.$executeRawUnsafe(
      `WITH expired AS (SELECT now() - make_interval(days => $2) AS before)
       DELETE FROM "notifications" WHERE user_id = $1::uuid AND (
         (read AND updated_at < (SELECT before FROM expired))
         OR id IN (SELECT id FROM "notifications" WHERE user_id = $1::uuid AND NOT (read AND updated_at < (SELECT before FROM expired))
                   ORDER BY updated_at DESC, id DESC OFFSET $3))`,
      userId,
      READ_ENTRY_TTL_DAYS,
      INBOX_MAX,
    );
  }
}

/** The unread counts of the recipients whose inbox changed, for their `notification.changed.v1` events. */
export async function countsOf(tx: SqlClient, userIds: readonly string[]): Promise<Array<{ userId: string; unreadCount: number }>> {
  const counts: Array<{ userId: string; unreadCount: number }> = [];
  // One after the other: a transaction is one connection.
  for (const userId of new Set(userIds)) counts.push({ userId, unreadCount: await unreadCount(tx, userId) });
  return counts;
}
