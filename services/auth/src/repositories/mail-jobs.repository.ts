import { executeSql, queryRows, sql } from '@hoptrack/runtime';
import type { Db } from '../db';
import type { MailJob } from '../generated/prisma/client';

/** A mail to send; `status` 'skipped' writes one that is never sent. */
export type NewMailJob = Pick<MailJob, 'id' | 'kind'> & Partial<Pick<MailJob, 'recipient' | 'link' | 'status'>>;

/** A job the relay claimed to send. */
export interface ClaimedJob {
  id: string;
  kind: string;
  recipient: string | null;
  link: string | null;
  attempts: number;
}

/** The mail jobs: written with the change that asks for the mail, sent by the mail relay. */
export const mailJobsRepository = {
  create(db: Db, data: NewMailJob): Promise<MailJob> {
    return db.mailJob.create({ data });
  },
  /** Deletes the jobs addressed to any of these addresses; how many went. */
  async deleteAddressedTo(db: Db, addresses: string[]): Promise<number> {
    return (await db.mailJob.deleteMany({ where: { recipient: { in: addresses } } })).count;
  },
  /** Housekeeping: settled jobs older than a week. */
  deleteSettledOlderThanAWeek(db: Db): Promise<number> {
    return executeSql(db, sql`DELETE FROM "mail_jobs" WHERE "status" <> 'pending' AND "created_at" < now() - interval '7 days'`);
  },
  /**
   * Claims up to `batch` due jobs under a lease of `leaseMs`, counting the attempt.
   * Replicas share the table: SKIP LOCKED gives each job to one of them.
   */
  claimDue(db: Db, batch: number, leaseMs: number): Promise<ClaimedJob[]> {
    return queryRows<ClaimedJob[]>(
      db,
      sql`UPDATE "mail_jobs" SET "attempts" = "attempts" + 1, "next_attempt_at" = now() + (${String(leaseMs)} || ' milliseconds')::interval
          WHERE "id" IN (SELECT "id" FROM "mail_jobs" WHERE "status" = 'pending' AND "next_attempt_at" <= now()
                          ORDER BY "created_at" LIMIT ${batch} FOR UPDATE SKIP LOCKED)
          RETURNING "id", "kind", "recipient", "link", "attempts"`,
    );
  },
  /** A settled job keeps no address and no link: the log of what was sent names nobody. */
  markSent(db: Db, id: string): Promise<number> {
    return executeSql(db, sql`UPDATE "mail_jobs" SET "status" = 'sent', "sent_at" = now(), "link" = NULL, "recipient" = NULL WHERE "id" = ${id}::uuid`);
  },
  /** Given up: settled as failed, without its address and link. */
  markFailed(db: Db, id: string, error: string): Promise<number> {
    return executeSql(db, sql`UPDATE "mail_jobs" SET "status" = 'failed', "link" = NULL, "recipient" = NULL, "last_error" = ${error} WHERE "id" = ${id}::uuid`);
  },
  /** Tried again in `backoffMs`. */
  scheduleRetry(db: Db, id: string, error: string, backoffMs: number): Promise<number> {
    return executeSql(
      db,
      sql`UPDATE "mail_jobs" SET "next_attempt_at" = now() + (${String(backoffMs)} || ' milliseconds')::interval, "last_error" = ${error} WHERE "id" = ${id}::uuid`,
    );
  },
};
