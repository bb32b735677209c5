import { Poller, type Logger } from '@hoptrack/runtime';
import type { PrismaClient } from '../db';
import { isMailKind, type Mailer } from '../domain/mailer';
import { mailJobsRepository as mailJobs, type ClaimedJob } from '../repositories/mail-jobs.repository';
import { passwordResetsRepository as passwordResets } from '../repositories/password-resets.repository';

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
/** Housekeeping (expired links, settled jobs) at most this often: it was two deletes every second on an idle stack. */
const HOUSEKEEPING_MS = 60_000;
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
    // Idle, it looks less and less often, up to 8 × pollMs (Poller): a queued mail pokes it, and a retry's due time
    // is minutes away (backoffMs), so a few seconds more on top are nothing to a mail.
    this.poller = new Poller(() => this.sendDue(), {
      pollMs: options.pollMs,
      idleMaxMs: 8 * options.pollMs,
      logger: options.logger,
      failure: 'mail relay pass failed; next poll retries',
    });
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
    await this.sendDue({ housekeeping: true });
  }

  private lastHousekeeping = 0;

  /** Sends every due job; resolves how many it claimed (0: the poller may wait longer). */
  private async sendDue(options: { housekeeping?: boolean } = {}): Promise<number> {
    // Housekeeping first, once a minute: links past their hour (and a day's grace) and settled jobs older than a week.
    if (options.housekeeping || Date.now() - this.lastHousekeeping >= HOUSEKEEPING_MS) {
      this.lastHousekeeping = Date.now();
      await passwordResets.deleteExpired(this.options.prisma);
      await mailJobs.deleteSettledOlderThanAWeek(this.options.prisma);
    }
    let claimed = 0;
    for (;;) {
      const jobs = await mailJobs.claimDue(this.options.prisma, BATCH, this.leaseMs);
      if (jobs.length === 0) return claimed;
      claimed += jobs.length;
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
      await mailJobs.markSent(this.options.prisma, job.id);
      log.info('mail sent');
    } catch (err) {
      const giveUp = job.attempts >= this.maxAttempts;
      const error = String(err instanceof Error ? err.message : err).slice(0, 500);
      if (giveUp) await mailJobs.markFailed(this.options.prisma, job.id, error);
      else await mailJobs.scheduleRetry(this.options.prisma, job.id, error, backoffMs(job.attempts));
      if (giveUp) log.error({ err }, 'mail given up after its last attempt');
      else log.warn({ err }, 'mail not sent; will try again');
    }
  }
}
