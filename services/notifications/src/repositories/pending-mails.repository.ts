import { NOTIFICATION_KIND_NAMES, NOTIFICATION_KINDS } from '@hoptrack/proto';
import { executeSql, identifier, queryRows, sql, uuid, type Sql, type SqlClient } from '@hoptrack/runtime';
import { inboxSql } from '../domain/visibility';

/** Contributions waiting for their person's next mail digest (pending_mails). */

/** Kinds whose e-mail is on until a person turns it off. */
const EMAIL_BY_DEFAULT = NOTIFICATION_KIND_NAMES.filter((kind) => NOTIFICATION_KINDS[kind].emailByDefault);

/** SQL: the kind has e-mail on for the person (their setting, else the kind's default: EMAIL_BY_DEFAULT). */
const emailOn = (user: Sql, kind: Sql) =>
  sql`COALESCE((SELECT s.email FROM "notification_settings" s WHERE s.user_id = ${user} AND s.kind = ${kind}), ${kind} = ANY(${EMAIL_BY_DEFAULT}::text[]))`;

/** A pending contribution, and whether it is still to be mailed: e-mail still on for its kind, and the contribution still visible. */
export interface PendingMailRow {
  notification_id: string;
  kind: string;
  source_id: string;
  visible: boolean;
}

export const pendingMailsRepository = {
  /** Remembers the contribution to entry `entryId` for its recipient's next mail when its kind's e-mail is on for them; the rows added (0 or 1). */
  remember(db: SqlClient, entryId: string, c: { recipientId: string; kind: string; sourceId: string; at: Date }): Promise<number> {
    return executeSql(
      db,
      sql`INSERT INTO "pending_mails" (user_id, notification_id, kind, source_id, at)
       SELECT ${uuid(c.recipientId)}, ${uuid(entryId)}, ${c.kind}, ${c.sourceId}, ${c.at}
        WHERE ${emailOn(uuid(c.recipientId), sql`${c.kind}::text`)} ON CONFLICT DO NOTHING`,
    );
  },

  /** Everything pending for the person, each with whether it is still to be mailed. */
  listFor(db: SqlClient, userId: string): Promise<PendingMailRow[]> {
    return queryRows<PendingMailRow[]>(
      db,
      sql`SELECT p.notification_id::text AS "notification_id", p.kind, p.source_id,
              (${emailOn(uuid(userId), identifier('p.kind'))} AND ${inboxSql.actorVisible('a', 'n')}) AS "visible"
         FROM "pending_mails" p
         JOIN "notification_actors" a ON a.notification_id = p.notification_id AND a.kind = p.kind AND a.source_id = p.source_id
         JOIN "notifications" n ON n.id = p.notification_id
        WHERE p.user_id = ${uuid(userId)}`,
    );
  },

  /** Forgets exactly these (what a mail was made of): a contribution that arrived since waits for its own mail. */
  async deleteSent(db: SqlClient, sent: readonly Pick<PendingMailRow, 'notification_id' | 'kind' | 'source_id'>[]): Promise<void> {
    await executeSql(
      db,
      sql`DELETE FROM "pending_mails" p USING unnest(${sent.map((p) => p.notification_id)}::uuid[], ${sent.map((p) => p.kind)}::text[], ${sent.map((p) => p.source_id)}::text[]) AS sent(notification_id, kind, source_id)
        WHERE p.notification_id = sent.notification_id AND p.kind = sent.kind AND p.source_id = sent.source_id`,
    );
  },

  async deleteOwnedBy(db: SqlClient, userId: string): Promise<void> {
    await executeSql(db, sql`DELETE FROM "pending_mails" WHERE user_id = ${userId}::uuid`);
  },
};
