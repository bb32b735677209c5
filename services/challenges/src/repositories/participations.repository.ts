import type { ChallengeKind } from '@hoptrack/proto';
import { executeSql, queryRows, sql, type Sql, type SqlClient } from '@hoptrack/runtime';
import type { Db, Prisma } from '../db';
import type { Page } from './challenges.repository';

/** People in challenges (user_challenges): joining, progress, completion. */

/** A person's new place in a challenge: its day's window in their zone. */
export interface NewParticipation {
  userId: string;
  challengeId: string;
  timeZone: string;
  windowStart: Date;
  windowEnd: Date;
}

export interface CompletedRow {
  id: string;
  title: string;
  challenge_type: ChallengeKind;
  date: string;
  completed_at: Date;
}

/** A participation whose progress a recompute set, with what its completion event says. */
export interface RecomputedRow {
  challenge_id: string;
  is_completed: boolean;
  user_id: string;
  completed_at: Date | null;
  title: string;
  date: string;
}

/** What an export shows of the challenge a participation or an invitation is in. */
export const CHALLENGE_SUMMARY = { select: { id: true, title: true, description: true, challengeType: true, targetValue: true, date: true } } as const;

export type ExportedParticipation = Prisma.UserChallengeGetPayload<{ include: { challenge: typeof CHALLENGE_SUMMARY } }>;

export const participationsRepository = {
  /** The person's progress lock (a transaction-level advisory lock): their recomputes, joins and erasure one after the other (Progress.lock says why). */
  async lockProgress(db: SqlClient, userId: string): Promise<void> {
    await queryRows(db, sql`SELECT pg_advisory_xact_lock(hashtextextended(${userId}, 23))::text AS locked`);
  },

  /** The end of the person's window in the challenge; undefined when they have not joined it. */
  async findWindowEnd(db: SqlClient, userId: string, challengeId: string): Promise<Date | undefined> {
    const [existing] = await queryRows<Array<{ window_end: Date }>>(
      db,
      sql`SELECT window_end FROM user_challenges WHERE user_id = ${userId}::uuid AND challenge_id = ${challengeId}::uuid`,
    );
    return existing?.window_end;
  },

  /** Joins, unless the person is in already. */
  async join(db: SqlClient, p: NewParticipation): Promise<void> {
    await executeSql(
      db,
      sql`INSERT INTO user_challenges (id, user_id, challenge_id, time_zone, window_start, window_end)
       VALUES (gen_random_uuid(), ${p.userId}::uuid, ${p.challengeId}::uuid, ${p.timeZone}, ${p.windowStart.toISOString()}::timestamptz, ${p.windowEnd.toISOString()}::timestamptz) ON CONFLICT (user_id, challenge_id) DO NOTHING`,
    );
  },

  /** Locks the person's row in the challenge for the rest of the transaction. */
  async lock(db: SqlClient, userId: string, challengeId: string): Promise<void> {
    await queryRows(db, sql`SELECT 1 FROM user_challenges WHERE user_id = ${userId}::uuid AND challenge_id = ${challengeId}::uuid FOR UPDATE`);
  },

  /** The person's completed challenges, newest first. */
  listCompletedOf(db: SqlClient, userId: string, page: Page): Promise<CompletedRow[]> {
    return queryRows<CompletedRow[]>(
      db,
      sql`SELECT dc.id::text, dc.title, dc.challenge_type, to_char(dc.date, 'YYYY-MM-DD') AS date, uc.completed_at
         FROM user_challenges uc JOIN daily_challenges dc ON dc.id = uc.challenge_id
        WHERE uc.user_id = ${userId}::uuid AND uc.is_completed ORDER BY uc.completed_at DESC, dc.id LIMIT ${page.limit} OFFSET ${page.offset}`,
    );
  },

  /**
   * Sets the progress (`progress`, an expression over `uc` and `dc`: the
   * rules) of the person's open challenges that a fact at `at` may move:
   * those still running at `now`, and the one whose day `at` fell in. One
   * that reaches its target completes at `now`; the update skips completed
   * rows, so of two recomputes only the first completes it. The rows it set.
   */
  recompute(db: SqlClient, userId: string, progress: Sql, now: Date, at: Date): Promise<RecomputedRow[]> {
    const [nowAt, factAt] = [now.toISOString(), at.toISOString()];
    return queryRows<RecomputedRow[]>(
      db,
      sql`WITH fresh AS (
         SELECT uc.id, ${progress} AS progress, dc.target_value, dc.title, to_char(dc.date, 'YYYY-MM-DD') AS date
           FROM user_challenges uc JOIN daily_challenges dc ON dc.id = uc.challenge_id
          WHERE uc.user_id = ${userId}::uuid AND NOT uc.is_completed
            AND (uc.window_end > ${nowAt}::timestamptz OR (uc.window_start <= ${factAt}::timestamptz AND uc.window_end > ${factAt}::timestamptz))
       )
       UPDATE user_challenges uc
          SET progress = fresh.progress,
              is_completed = fresh.progress >= fresh.target_value,
              completed_at = CASE WHEN fresh.progress >= fresh.target_value THEN ${nowAt}::timestamptz END
         FROM fresh
        WHERE uc.id = fresh.id AND NOT uc.is_completed
        RETURNING uc.challenge_id::text, uc.user_id::text, uc.is_completed, uc.completed_at, fresh.title, fresh.date`,
    );
  },

  async deleteOwnedBy(db: SqlClient, userId: string): Promise<void> {
    await executeSql(db, sql`DELETE FROM user_challenges WHERE user_id = ${userId}::uuid`);
  },

  /** Every challenge the person joined, in the order they joined, with the challenge. */
  listForExport(db: Db, userId: string): Promise<ExportedParticipation[]> {
    return db.userChallenge.findMany({ where: { userId }, orderBy: [{ joinedAt: 'asc' }, { id: 'asc' }], include: { challenge: CHALLENGE_SUMMARY } });
  },
};
