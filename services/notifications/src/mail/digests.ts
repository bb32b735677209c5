import { createHash } from 'node:crypto';
import { NOTIFICATION_KIND_NAMES, NOTIFICATION_KINDS, type Notification } from '@hoptrack/proto';
import { executeSql, identifier, queryRows, sql, uuid, type Logger, type Sql, type SqlClient } from '@hoptrack/runtime';
import type { Queue } from 'bullmq';
import type { Transporter } from 'nodemailer';
import type { Contribution } from '../domain/inbox';
import { entriesByIds } from '../domain/reads';
import { inboxSql } from '../domain/visibility';
import type { UnsubscribeTokens } from './unsubscribe';

/**
 * A person's part of a digest job's id: a one-way hash, not the id, because
 * BullMQ writes job ids where jobs leave no other trace (its events stream),
 * and an erased person's id must be nowhere (issue 24).
 */
const jobKeyOf = (userId: string): string => createHash('sha256').update(`digest:${userId.toLowerCase()}`).digest('hex').slice(0, 32);

/** The job of one person's next mail. */
export interface DigestJob {
  userId: string;
}

/** Kinds whose e-mail is on until a person turns it off. */
const EMAIL_BY_DEFAULT = NOTIFICATION_KIND_NAMES.filter((kind) => NOTIFICATION_KINDS[kind].emailByDefault);

/** SQL: the kind has e-mail on for the person (their setting, else the kind's default: EMAIL_BY_DEFAULT). */
const emailOn = (user: Sql, kind: Sql) =>
  sql`COALESCE((SELECT s.email FROM "notification_settings" s WHERE s.user_id = ${user} AND s.kind = ${kind}), ${kind} = ANY(${EMAIL_BY_DEFAULT}::text[]))`;

export interface DigestsOptions {
  queue: Queue<DigestJob>;
  /** Contributions within one window go out as one mail. */
  batchMs: number;
  /** Null when SMTP_URL is not set: nothing is queued or sent. */
  transport: Transporter | null;
  from: string;
  publicWebUrl: string;
  tokens: UnsubscribeTokens;
  logger: Logger;
}

/**
 * Notification e-mail, batched: a contribution whose kind has e-mail on is
 * remembered (pending_mails, in the consumer's transaction) and the person's
 * mail for the current window is queued as a delayed BullMQ job whose id is
 * the window: ten likes within it make one job, so one mail. The job reads
 * what is still pending and still visible (an unlike, a block or a switch
 * turned off since takes it out), sends one mail through SMTP and forgets
 * what it sent. At least once: a crash between SMTP's answer and the forget
 * can send a mail twice.
 */
export class MailDigests {
  constructor(private readonly options: DigestsOptions) {}

  get enabled(): boolean {
    return this.options.transport !== null;
  }

  /** Remembers the contribution for the recipient's next mail when its kind's e-mail is on. */
  async remember(tx: SqlClient, entryId: string, c: Contribution): Promise<void> {
    if (!this.enabled) return;
    const inserted = await executeSql(
      tx,
      sql`INSERT INTO "pending_mails" (user_id, notification_id, kind, source_id, at)
       SELECT ${uuid(c.recipientId)}, ${uuid(entryId)}, ${c.kind}, ${c.sourceId}, ${c.at}
        WHERE ${emailOn(uuid(c.recipientId), sql`${c.kind}::text`)} ON CONFLICT DO NOTHING`,
    );
    if (inserted === 0) return;
    // One job per person and window: BullMQ ignores an add whose id already exists.
    const now = Date.now();
    const window = Math.floor(now / this.options.batchMs);
    await this.options.queue.add('digest', { userId: c.recipientId }, {
      jobId: `digest-${jobKeyOf(c.recipientId)}-${window}`,
      delay: (window + 1) * this.options.batchMs - now,
      attempts: 5,
      backoff: { type: 'exponential', delay: 5_000 },
      removeOnComplete: true,
      removeOnFail: 1000,
    });
  }

  /** The job: one mail of what is pending for the person, then forgets it. */
  async send(db: SqlClient, userId: string): Promise<{ sent: boolean; entries: number }> {
    const transport = this.options.transport;
    if (!transport) return { sent: false, entries: 0 };
    const pending = await queryRows<Array<{ notification_id: string; kind: string; source_id: string; visible: boolean }>>(
      db,
      sql`SELECT p.notification_id::text AS "notification_id", p.kind, p.source_id,
              (${emailOn(uuid(userId), identifier('p.kind'))} AND ${inboxSql.actorVisible('a', 'n')}) AS "visible"
         FROM "pending_mails" p
         JOIN "notification_actors" a ON a.notification_id = p.notification_id AND a.kind = p.kind AND a.source_id = p.source_id
         JOIN "notifications" n ON n.id = p.notification_id
        WHERE p.user_id = ${uuid(userId)}`,
    );
    if (pending.length === 0) return { sent: false, entries: 0 };
    const [person] = await db.$queryRawUnsafe<Array<{ email: string | null }>>('SELECT email FROM "users" WHERE id = $1::uuid', userId);
    const entries = await entriesByIds(
      db,
      userId,
      pending.filter((p) => p.visible).map((p) => p.notification_id),
    );
    if (person?.email && entries.length > 0) {
      await transport.sendMail(this.compose(person.email, userId, entries));
      this.options.logger.info({ userId, entries: entries.length, contributions: pending.length }, 'notification mail sent');
    }
    // Exactly what was read: a contribution that arrived during the send waits for its own window's mail.
    await db.$executeRawUnsafe(
      `DELETE FROM "pending_mails" p USING unnest($1::uuid[], $2::text[], $3::text[]) AS sent(notification_id, kind, source_id)
        WHERE p.notification_id = sent.notification_id AND p.kind = sent.kind AND p.source_id = sent.source_id`,
      pending.map((p) => p.notification_id),
      pending.map((p) => p.kind),
      pending.map((p) => p.source_id),
    );
    return { sent: Boolean(person?.email) && entries.length > 0, entries: entries.length };
  }

  private compose(to: string, userId: string, entries: Notification[]) {
    const web = this.options.publicWebUrl.replace(/\/$/, '');
    const unsubscribeUrl = `${web}/unsubscribe?token=${encodeURIComponent(this.options.tokens.sign(userId))}`;
    const [first] = entries;
    const subject = entries.length === 1 && first ? first.text : `${entries.length} new notifications on Hoptrack`;
    const lines = entries.map((entry) => `• ${entry.text}`);
    const text = [
      'Here is what happened on Hoptrack:',
      '',
      ...lines,
      '',
      `See them all: ${web}/notifications`,
      '',
      `Choose which e-mails you get on the notifications page, or stop all notification e-mail: ${unsubscribeUrl}`,
    ].join('\n');
    return { from: this.options.from, to, subject, text, headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>` } };
  }
}
