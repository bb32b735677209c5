import type { ChallengeKind } from '@hoptrack/proto';
import { executeSql, queryRows, sql, type Sql, type SqlClient } from '@hoptrack/runtime';
import type { Db, Prisma } from '../db';
import type { Page } from './challenges.repository';

/** People in challenges (user_challenges): joining, progress, completion. */

/** The zone a participation was joined in and its day there, [windowStart, windowEnd); what counts starts at the join (counts_from, issue 40). */
export interface ParticipationWindow {
  timeZone: string;
  windowStart: Date;
  windowEnd: Date;
}

/** A person's new place in a challenge: its day's window in their zone, counted from when they joined. */
export interface NewParticipation extends ParticipationWindow {
  userId: string;
  challengeId: string;
  /** The join, on the service's clock (joined_at is the database's, the order rows were made in). */
  joinedAt: Date;
}

/** What a new participation of a date must agree with: the person's other participations, of that date and around it. */
export interface WindowsAround {
  /** The window of the person's participations of the date itself, if any: one zone per person and day. */
  sameDay: ParticipationWindow | undefined;
  /** The latest end of their windows of earlier dates; null when there are none. */
  earlierEnd: Date | null;
  /** The earliest start of their windows of later dates; null when there are none. */
  laterStart: Date | null;
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
  /** Whether it was completed before this recompute: a completed row comes back only when it fell below its target. */
  was_completed: boolean;
  is_completed: boolean;
  user_id: string;
  completed_at: Date | null;
  title: string;
  date: string;
}

/** What an export shows of the challenge a participation or an invitation is in. */
export const CHALLENGE_SUMMARY = { select: { id: true, title: true, description: true, challengeType: true, targetValue: true, date: true } } as const;

export type ExportedParticipation = Prisma.UserChallengeGetPayload<{ include: { challenge: typeof CHALLENGE_SUMMARY } }>;

interface WindowsAroundRow {
  time_zone: string | null;
  window_start: Date | null;
  window_end: Date | null;
  earlier_end: Date | null;
  later_start: Date | null;
}

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

  /** The person's windows of the date and of the dates before and after it (WindowsAround). */
  async findWindowsAround(db: SqlClient, userId: string, date: string): Promise<WindowsAround> {
    const [row] = await queryRows<WindowsAroundRow[]>(
      db,
      sql`SELECT d.time_zone, d.window_start, d.window_end, n.earlier_end, n.later_start
         FROM (SELECT max(uc.window_end) FILTER (WHERE dc.date < ${date}::date) AS earlier_end,
                      min(uc.window_start) FILTER (WHERE dc.date > ${date}::date) AS later_start
                 FROM user_challenges uc JOIN daily_challenges dc ON dc.id = uc.challenge_id
                WHERE uc.user_id = ${userId}::uuid) n
         LEFT JOIN LATERAL (
               SELECT uc.time_zone, uc.window_start, uc.window_end
                 FROM user_challenges uc JOIN daily_challenges dc ON dc.id = uc.challenge_id
                WHERE uc.user_id = ${userId}::uuid AND dc.date = ${date}::date
                ORDER BY uc.joined_at, uc.id LIMIT 1) d ON true`,
    );
    const sameDay =
      row?.time_zone && row.window_start && row.window_end ? { timeZone: row.time_zone, windowStart: row.window_start, windowEnd: row.window_end } : undefined;
    return { sameDay, earlierEnd: row?.earlier_end ?? null, laterStart: row?.later_start ?? null };
  },

  /**
   * Joins, unless the person is in already. What counts starts at the later
   * of the day's start and the join (counts_from): a day not begun yet counts
   * from its start, one under way from the join.
   */
  async join(db: SqlClient, p: NewParticipation): Promise<void> {
    const [start, end, joinedAt] = [p.windowStart.toISOString(), p.windowEnd.toISOString(), p.joinedAt.toISOString()];
    await executeSql(
      db,
      sql`INSERT INTO user_challenges (id, user_id, challenge_id, time_zone, window_start, window_end, counts_from)
       VALUES (gen_random_uuid(), ${p.userId}::uuid, ${p.challengeId}::uuid, ${p.timeZone}, ${start}::timestamptz, ${end}::timestamptz,
               GREATEST(${start}::timestamptz, ${joinedAt}::timestamptz)) ON CONFLICT (user_id, challenge_id) DO NOTHING`,
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
   * rules) of the person's challenges that a fact at `at` may move: the open
   * ones still running at `now`, and every one whose window holds `at`,
   * completed ones included (a deleted fact may have been what completed it).
   * An open one that reaches its target completes at `now`; a completed one
   * that falls below it opens again (completed_at null); a completed one
   * still at its target is left as it is, its completed_at kept. Each row is
   * updated only if it is still as it was read, so of two recomputes only the
   * first changes it. The rows it set.
   */
  recompute(db: SqlClient, userId: string, progress: Sql, now: Date, at: Date): Promise<RecomputedRow[]> {
    const [nowAt, factAt] = [now.toISOString(), at.toISOString()];
    return queryRows<RecomputedRow[]>(
      db,
      sql`WITH fresh AS (
         SELECT uc.id, uc.is_completed AS was_completed, ${progress} AS progress, dc.target_value, dc.title, to_char(dc.date, 'YYYY-MM-DD') AS date
           FROM user_challenges uc JOIN daily_challenges dc ON dc.id = uc.challenge_id
          WHERE uc.user_id = ${userId}::uuid
            AND ((NOT uc.is_completed AND uc.window_end > ${nowAt}::timestamptz) OR (uc.window_start <= ${factAt}::timestamptz AND uc.window_end > ${factAt}::timestamptz))
       )
       UPDATE user_challenges uc
          SET progress = fresh.progress,
              is_completed = fresh.progress >= fresh.target_value,
              completed_at = CASE WHEN fresh.progress >= fresh.target_value THEN ${nowAt}::timestamptz END
         FROM fresh
        WHERE uc.id = fresh.id AND uc.is_completed = fresh.was_completed AND NOT (fresh.was_completed AND fresh.progress >= fresh.target_value)
        RETURNING uc.challenge_id::text, uc.user_id::text, fresh.was_completed, uc.is_completed, uc.completed_at, fresh.title, fresh.date`,
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
