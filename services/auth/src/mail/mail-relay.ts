import { Poller, type Logger } from '@hoptrack/runtime';
import type { PrismaClient } from '../db';
import { isMailKind, type Mailer } from '../domain/mailer';

interface ClaimedJob {
  id: string;
  kind: string;
  recipient: string | null;
  link: string | null;
  attempts: number;
}

export interface MailRelayOptions {
  prisma: PrismaClient;
  mailer: Mailer;
  logger: Logger;
  pollMs: number;
  /** Tries per mail before it is given up (the link expires in an hour anyway). */
  maxAttempts?: number;
  /** A claimed job not settled within this (a crash mid-send) is tried again. */
  leaseMs?: number;
}

const BATCH = 10;
const backoffMs = (attempt: number) => Math.min(10 * 60_000, 5_000 * 2 ** (attempt - 1));

/**
 * Sends the mail jobs requests wrote, off the request path: forgot-password
 * answers as soon as its transaction commits, whether SMTP is fast, slow or
 * down. Replicas share the table: a job is claimed with SKIP LOCKED under a
 * lease, so each is sent by one of them, and again only if that one died
 * mid-send (at least once: a crash between the SMTP answer and the mark can
 * send one mail twice).
 */
export class MailRelay {
  private readonly poller: Poller;
  private readonly maxAttempts: number;
  private readonly leaseMs: number;

  constructor(private readonly options: MailRelayOptions) {
    this.maxAttempts = options.maxAttempts ?? 8;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.poller = new Poller(() => this.sendDue(), { pollMs: options.pollMs, logger: options.logger, failure: 'mail relay pass failed; next poll retries' });
  }

  /** Starts sending (server.ts runs it with the other background work); the handle stops it at shutdown. */
  start(): { stop(): Promise<void> } {
    this.poller.start();
    return { stop: () => this.poller.stop() };
  }

  /** Runs a pass now (after a commit that queued mail); a pass already running runs once more. */
  poke(): void {
    this.poller.poke();
  }

  /** Waits for a pass under way, then sends every job that is due: for tests. */
  async drain(): Promise<void> {
    await this.poller.idle();
    await this.sendDue();
  }

  private async sendDue(): Promise<void> {
    // Housekeeping first: links past their hour (and a day's grace) and settled jobs older than a week.
    await this.options.prisma.$executeRawUnsafe(`DELETE FROM "password_resets" WHERE "expires_at" < now() - interval '1 day'`);
    await this.options.prisma.$executeRawUnsafe(`DELETE FROM "mail_jobs" WHERE "status" <> 'pending' AND "created_at" < now() - interval '7 days'`);
    for (;;) {
      const jobs = await this.options.prisma.$queryRawUnsafe<ClaimedJob[]>(
        `UPDATE "mail_jobs" SET "attempts" = "attempts" + 1, "next_attempt_at" = now() + ($1 || ' milliseconds')::interval
          WHERE "id" IN (SELECT "id" FROM "mail_jobs" WHERE "status" = 'pending' AND "next_attempt_at" <= now()
                          ORDER BY "created_at" LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
          RETURNING "id", "kind", "recipient", "link", "attempts"`,
        String(this.leaseMs),
      );
      if (jobs.length === 0) return;
      await Promise.all(jobs.map((job) => this.send(job)));
    }
  }

  private async send(job: ClaimedJob): Promise<void> {
    const log = this.options.logger.child({ mailJob: job.id, kind: job.kind, attempt: job.attempts });
    try {
      if (!job.recipient || !job.link) throw new Error(`mail job without recipient or link: ${job.kind}`);
      if (!isMailKind(job.kind)) throw new Error(`not a mail this relay sends: ${job.kind}`);
      await this.options.mailer.send(job.kind, job.recipient, job.link);
      // A settled job keeps no address and no link: the log of what was sent names nobody.
      await this.options.prisma.$executeRawUnsafe(
        `UPDATE "mail_jobs" SET "status" = 'sent', "sent_at" = now(), "link" = NULL, "recipient" = NULL WHERE "id" = $1::uuid`,
        job.id,
      );
      log.info('mail sent');
    } catch (err) {
      const giveUp = job.attempts >= this.maxAttempts;
      await this.options.prisma.$executeRawUnsafe(
        giveUp
          ? `UPDATE "mail_jobs" SET "status" = 'failed', "link" = NULL, "recipient" = NULL, "last_error" = $2 WHERE "id" = $1::uuid`
          : `UPDATE "mail_jobs" SET "next_attempt_at" = now() + ($3 || ' milliseconds')::interval, "last_error" = $2 WHERE "id" = $1::uuid`,
        job.id,
        String(err instanceof Error ? err.message : err).slice(0, 500),
        ...(giveUp ? [] : [String(backoffMs(job.attempts))]),
      );
      if (giveUp) log.error({ err }, 'mail given up after its last attempt');
      else log.warn({ err }, 'mail not sent; will try again');
    }
  }
}
