import { audienceSql, executeSql, queryRows, sql, uuid, type SqlClient } from '@hoptrack/runtime';

/**
 * Inbox entries (notifications) and the contributions in them
 * (notification_actors): the writes. Each takes the client, a transaction, or
 * the consumers' plain SQL client (SqlClient), since the inbox consumers write
 * over pg rather than through Prisma.
 */

/** A new entry: one (recipient, group, target). */
export interface NewEntry {
  id: string;
  userId: string;
  group: string;
  targetId: string;
  at: Date;
}

/** One contribution to an entry. */
export interface NewContribution {
  kind: string;
  sourceId: string;
  actorId: string;
  at: Date;
}

type UserIdRow = { user_id: string };
const userIds = (rows: readonly UserIdRow[]): string[] => rows.map((row) => row.user_id);

export const entriesRepository = {
  /** Whether the recipient takes the actor's contribution of this kind: the kind is on in-app, and no block either way nor mute is between them. */
  async acceptsContribution(db: SqlClient, recipientId: string, actorId: string, kind: string): Promise<boolean> {
    const [recipient, actor] = [uuid(recipientId), uuid(actorId)];
    const [allowed] = await queryRows<Array<{ ok: boolean }>>(
      db,
      sql`SELECT NOT EXISTS (SELECT 1 FROM "notification_settings" WHERE user_id = ${recipient} AND kind = ${kind} AND NOT in_app)
          AND NOT ${audienceSql.blockedBetween(recipient, actor)} AND NOT ${audienceSql.muted(recipient, actor)} AS "ok"`,
    );
    return allowed?.ok === true;
  },

  /** Holds the (recipient, group, target) for the rest of the transaction: two instances may handle two likes of one session at once — one group, one entry. */
  async lockGroup(db: SqlClient, recipientId: string, group: string, targetId: string): Promise<void> {
    await executeSql(db, sql`SELECT pg_advisory_xact_lock(hashtext(${recipientId} || ${group} || ${targetId}))`);
  },

  /** The newest entry of the group about the target that is unread or was active after `since`. */
  async findOpenEntry(db: SqlClient, recipientId: string, group: string, targetId: string, since: Date): Promise<string | undefined> {
    const [open] = await queryRows<Array<{ id: string }>>(
      db,
      sql`SELECT id::text AS "id" FROM "notifications"
        WHERE user_id = ${recipientId}::uuid AND group_key = ${group} AND target_id = ${targetId}::uuid AND (NOT read OR updated_at > ${since}::timestamptz)
        ORDER BY updated_at DESC LIMIT 1`,
    );
    return open?.id;
  },

  async createEntry(db: SqlClient, entry: NewEntry): Promise<void> {
    await executeSql(
      db,
      sql`INSERT INTO "notifications" (id, user_id, group_key, target_id, created_at, updated_at) VALUES (${entry.id}::uuid, ${entry.userId}::uuid, ${entry.group}, ${entry.targetId}::uuid, ${entry.at}, ${entry.at})`,
    );
  },

  /** The rows added: 0 when the contribution is already there (a replay). */
  addContribution(db: SqlClient, entryId: string, c: NewContribution): Promise<number> {
    return executeSql(
      db,
      sql`INSERT INTO "notification_actors" (notification_id, kind, source_id, actor_id, at) VALUES (${entryId}::uuid, ${c.kind}, ${c.sourceId}, ${c.actorId}::uuid, ${c.at}) ON CONFLICT DO NOTHING`,
    );
  },

  /** The entry is unread again, and active as late as `at`. */
  async reopenEntry(db: SqlClient, entryId: string, at: Date): Promise<void> {
    await executeSql(db, sql`UPDATE "notifications" SET read = false, updated_at = GREATEST(updated_at, ${at}) WHERE id = ${entryId}::uuid`);
  },

  /**
   * Deletes one contribution (of every recipient's entry about the target, or
   * only `recipientId`'s) and an entry it leaves with nobody; the recipients
   * whose entries it was in.
   */
  async deleteContribution(db: SqlClient, r: { kind: string; targetId: string; sourceId: string; recipientId: string | null }): Promise<string[]> {
    const rows = await queryRows<UserIdRow[]>(
      db,
      sql`WITH gone AS (
         DELETE FROM "notification_actors" a USING "notifications" n
          WHERE a.notification_id = n.id AND n.target_id = ${r.targetId}::uuid AND a.kind = ${r.kind} AND a.source_id = ${r.sourceId}
            AND (${r.recipientId}::uuid IS NULL OR n.user_id = ${r.recipientId}::uuid)
          RETURNING n.id, n.user_id
       ), emptied AS (
         DELETE FROM "notifications" n USING gone
          WHERE n.id = gone.id
            AND NOT EXISTS (SELECT 1 FROM "notification_actors" a WHERE a.notification_id = n.id AND NOT (a.kind = ${r.kind} AND a.source_id = ${r.sourceId}))
       )
       SELECT DISTINCT user_id::text AS "user_id" FROM gone`,
    );
    return userIds(rows);
  },

  /** Deletes the entries about the target (only of `group`, only `recipientId`'s, when given); the recipient of each, one per entry. */
  async deleteAboutTarget(db: SqlClient, targetId: string, group: string | null, recipientId: string | null): Promise<string[]> {
    const rows = await queryRows<UserIdRow[]>(
      db,
      sql`DELETE FROM "notifications" WHERE target_id = ${targetId}::uuid AND (${group}::text IS NULL OR group_key = ${group}) AND (${recipientId}::uuid IS NULL OR user_id = ${recipientId}::uuid)
        RETURNING user_id::text AS "user_id"`,
    );
    return userIds(rows);
  },

  /**
   * Keeps an inbox to its newest `max` entries and drops read ones older than
   * `readTtlDays`. The cap counts only the entries that stay: an expired read
   * entry among the newest must not push out one more that would have fitted.
   */
  async trimInbox(db: SqlClient, userId: string, readTtlDays: number, max: number): Promise<void> {
    await executeSql(
      db,
      sql`WITH expired AS (SELECT now() - make_interval(days => ${readTtlDays}) AS before)
       DELETE FROM "notifications" WHERE user_id = ${userId}::uuid AND (
         (read AND updated_at < (SELECT before FROM expired))
         OR id IN (SELECT id FROM "notifications" WHERE user_id = ${userId}::uuid AND NOT (read AND updated_at < (SELECT before FROM expired))
                   ORDER BY updated_at DESC, id DESC OFFSET ${max}))`,
    );
  },

  /** Marks every unread entry of the person read; how many. */
  markAllRead(db: SqlClient, userId: string): Promise<number> {
    return executeSql(db, sql`UPDATE "notifications" SET read = true WHERE user_id = ${userId}::uuid AND NOT read`);
  },

  /** Those of `ids` that are the person's entries, locked for the rest of the transaction. */
  lockOwnedEntries(db: SqlClient, userId: string, ids: readonly string[]): Promise<Array<{ id: string; read: boolean }>> {
    return queryRows<Array<{ id: string; read: boolean }>>(
      db,
      sql`SELECT id::text AS "id", read FROM "notifications" WHERE user_id = ${userId}::uuid AND id = ANY(${ids}::uuid[]) FOR UPDATE`,
    );
  },

  /** Marks the entries read; how many were unread. */
  markRead(db: SqlClient, ids: readonly string[]): Promise<number> {
    return executeSql(db, sql`UPDATE "notifications" SET read = true WHERE id = ANY(${ids}::uuid[]) AND NOT read`);
  },

  /** Marks one entry unread again; 1 when it was read. */
  markUnread(db: SqlClient, id: string): Promise<number> {
    return executeSql(db, sql`UPDATE "notifications" SET read = false WHERE id = ${id}::uuid AND read`);
  },

  /** Deletes the person's own inbox (their contributions and pending mails go with it: the cascade). */
  async deleteInboxOf(db: SqlClient, userId: string): Promise<void> {
    await executeSql(db, sql`DELETE FROM "notifications" WHERE user_id = ${userId}::uuid`);
  },

  /**
   * Deletes the person's contributions in others' inboxes (a reaction's source
   * is `emoji:actor`: covered by the actor), and an entry they leave with
   * nobody, as a retraction's does; the recipients whose entries they were in.
   */
  async deleteContributionsBy(db: SqlClient, userId: string): Promise<string[]> {
    const source = userId.toLowerCase();
    const rows = await queryRows<UserIdRow[]>(
      db,
      sql`WITH gone AS (
         DELETE FROM "notification_actors" a USING "notifications" n
          WHERE a.notification_id = n.id AND (a.actor_id = ${userId}::uuid OR strpos(lower(a.source_id), ${source}) > 0)
          RETURNING n.id, n.user_id
       ), emptied AS (
         DELETE FROM "notifications" n USING (SELECT DISTINCT id FROM gone) g
          WHERE n.id = g.id AND NOT EXISTS (
            SELECT 1 FROM "notification_actors" a WHERE a.notification_id = n.id AND a.actor_id <> ${userId}::uuid AND strpos(lower(a.source_id), ${source}) = 0)
       )
       SELECT DISTINCT user_id::text AS "user_id" FROM gone`,
    );
    return userIds(rows);
  },

  /** Deletes the entries about the person (a friend request or a message's entry targets them) and about their sessions; the recipient of each. */
  async deleteAboutPerson(db: SqlClient, userId: string): Promise<string[]> {
    const rows = await queryRows<UserIdRow[]>(
      db,
      sql`DELETE FROM "notifications" WHERE target_id = ${userId}::uuid OR target_id IN (SELECT session_id FROM "session_refs" WHERE owner_id = ${userId}::uuid)
        RETURNING user_id::text AS "user_id"`,
    );
    return userIds(rows);
  },
};
