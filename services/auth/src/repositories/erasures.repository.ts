import { queryRows, sql } from '@hoptrack/runtime';
import type { Db } from '../db';
import type { Erasure } from '../generated/prisma/client';

/** What an erasure's record says after a report: the services that reported, and how far it is. */
export interface ErasureProgress {
  reported: string[];
  completeAt: Date | null;
  firstPassAt: Date | null;
  resweepAt: Date | null;
}

/** An erasure due for scrubbing. */
export interface DueErasure {
  userId: string;
  email: string;
}

/** Erasures of deleted accounts: which services reported user.erased.v1, and when all had. */
export const erasuresRepository = {
  /** Records an account's erasure (a record already there is left as it is). */
  open(db: Db, userId: string, email: string): Promise<Erasure> {
    return db.erasure.upsert({ where: { userId }, create: { userId, email }, update: {} });
  },
  /**
   * Adds the service to the erasure's reports: an idempotent set insert, so a
   * redelivery counts once. With no record (an erasure already finished) a new
   * one opens under the id alone.
   */
  async addReport(db: Db, userId: string, service: string): Promise<ErasureProgress | undefined> {
    const [row] = await queryRows<ErasureProgress[]>(
      db,
      sql`
            INSERT INTO "erasures" ("user_id", "email", "reported") VALUES (${userId}::uuid, '', ARRAY[${service}])
            ON CONFLICT ("user_id") DO UPDATE SET "reported" = (SELECT array_agg(DISTINCT s) FROM unnest("erasures"."reported" || ARRAY[${service}]) AS s)
            RETURNING "reported", "complete_at" AS "completeAt", "first_pass_at" AS "firstPassAt", "resweep_at" AS "resweepAt"`,
    );
    return row;
  },
  markComplete(db: Db, userId: string, at: Date): Promise<Erasure> {
    return db.erasure.update({ where: { userId }, data: { completeAt: at } });
  },
  /** Every service reported the first pass: the second is due after the grace. */
  markFirstPass(db: Db, userId: string, at: Date): Promise<Erasure> {
    return db.erasure.update({ where: { userId }, data: { firstPassAt: at } });
  },
  /**
   * Up to `limit` erasures whose first pass ended at least `graceMs` ago and
   * whose second has not been sent, locked for the rest of the transaction
   * (SKIP LOCKED: one replica sends each). The grace is measured by the
   * database's clock, the one that stamped first_pass_at's row.
   */
  lockDueForResweep(db: Db, graceMs: number, limit: number): Promise<Array<{ userId: string }>> {
    return queryRows<Array<{ userId: string }>>(
      db,
      sql`
          SELECT "user_id"::text AS "userId" FROM "erasures"
          WHERE "first_pass_at" IS NOT NULL AND "resweep_at" IS NULL AND "complete_at" IS NULL
            AND "first_pass_at" <= now() - make_interval(secs => ${graceMs / 1000}::float8)
          ORDER BY "first_pass_at" LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
    );
  },
  /** The second pass is sent: its reports are counted afresh. */
  startResweep(db: Db, userId: string, at: Date): Promise<Erasure> {
    return db.erasure.update({ where: { userId }, data: { resweepAt: at, reported: [] } });
  },
  /**
   * Up to `limit` complete erasures, oldest first, locked for the rest of the
   * transaction. Replicas share the table: each row is worked by one of them
   * at a time (SKIP LOCKED).
   */
  lockDue(db: Db, limit: number): Promise<DueErasure[]> {
    return queryRows<DueErasure[]>(
      db,
      sql`
          SELECT "user_id"::text AS "userId", "email" FROM "erasures" WHERE "complete_at" IS NOT NULL
          ORDER BY "complete_at" LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
    );
  },
  delete(db: Db, userId: string): Promise<Erasure> {
    return db.erasure.delete({ where: { userId } });
  },
};
