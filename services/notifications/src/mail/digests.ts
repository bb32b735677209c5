import { createHash } from 'node:crypto';
import type { Notification } from '@hoptrack/proto';
import type { Logger, SqlClient } from '@hoptrack/runtime';
import type { Queue } from 'bullmq';
import type { Transporter } from 'nodemailer';
import type { Contribution } from '../domain/inbox';
import { entriesByIds } from '../domain/reads';
import { peopleRepository } from '../repositories/people.repository';
import { pendingMailsRepository } from '../repositories/pending-mails.repository';
import { mailLine } from './mail-text';
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
    const inserted = await pendingMailsRepository.remember(tx, entryId, c);
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
    const pending = await pendingMailsRepository.listFor(db, userId);
    if (pending.length === 0) return { sent: false, entries: 0 };
    const email = await peopleRepository.findEmail(db, userId);
    const entries = await entriesByIds(
      db,
      userId,
      pending.filter((p) => p.visible).map((p) => p.notification_id),
    );
    if (email && entries.length > 0) {
      await transport.sendMail(this.compose(email, userId, entries));
      this.options.logger.info({ userId, entries: entries.length, contributions: pending.length }, 'notification mail sent');
    }
    // Exactly what was read: a contribution that arrived during the send waits for its own window's mail.
    await pendingMailsRepository.deleteSent(db, pending);
    return { sent: Boolean(email) && entries.length > 0, entries: entries.length };
  }

  private compose(to: string, userId: string, entries: Notification[]) {
    const web = this.options.publicWebUrl.replace(/\/$/, '');
    const unsubscribeUrl = `${web}/unsubscribe?token=${encodeURIComponent(this.options.tokens.sign(userId))}`;
    const [first] = entries;
    // Names and titles are other people's words: quoted and neutralised (mail-text.ts), in the subject too.
    const subject = entries.length === 1 && first ? mailLine(first) : `${entries.length} new notifications on Hoptrack`;
    const lines = entries.map((entry) => `• ${mailLine(entry)}`);
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
