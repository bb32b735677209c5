import { CHALLENGE_KIND_NAMES, type ChallengeKind } from '@hoptrack/proto';
import { audienceSql, executeSql, identifier, queryRows, sql, uuid, type Sql, type SqlClient } from '@hoptrack/runtime';

/**
 * The daily challenges (daily_challenges): what the generator publishes, and
 * each as a viewer sees it, with their own progress if they joined.
 */

export interface ChallengeRow {
  id: string;
  title: string;
  description: string;
  challenge_type: ChallengeKind;
  target_value: number;
  date: string;
  is_active: boolean;
  progress: number | null;
  is_completed: boolean | null;
  completed_at: Date | null;
  window_end: Date | null;
  friend_count: number;
}

export interface FriendInChallengeRow {
  user_id: string;
  progress: number;
  is_completed: boolean;
  completed_at: Date | null;
}

/** One challenge of a date as the generator publishes it. */
export interface NewChallenge {
  kind: ChallengeKind;
  title: string;
  description: string;
  target: number;
}

export interface Page {
  limit: number;
  offset: number;
}

/**
 * The viewer's friends in a challenge, as rows `f` of user_challenges: the count every
 * card shows, and the page's list. Read from the viewer's friends (a few) into
 * the challenge's people (possibly everyone), by the (user, challenge) index.
 */
const friendsIn = (viewer: Sql, challenge: Sql): Sql =>
  sql`(${audienceSql.friendsOf(viewer)}) fr JOIN user_challenges f ON f.user_id = fr.id AND f.challenge_id = ${challenge}`;

/** Challenges as the viewer sees them: with their own progress, if they joined. Ends before its WHERE. */
function challengeSelect(viewerId: string): Sql {
  const viewer = uuid(viewerId);
  return sql`
  SELECT dc.id::text, dc.title, dc.description, dc.challenge_type, dc.target_value, to_char(dc.date, 'YYYY-MM-DD') AS date, dc.is_active,
         uc.progress, uc.is_completed, uc.completed_at, uc.window_end,
         (SELECT count(*)::int FROM ${friendsIn(viewer, identifier('dc.id'))}) AS friend_count
    FROM daily_challenges dc
    LEFT JOIN user_challenges uc ON uc.challenge_id = dc.id AND uc.user_id = ${viewer}`;
}

/** The viewer's joined challenges that match `status`, in `order`. */
function listJoined(db: SqlClient, viewerId: string, status: Sql, order: Sql, page: Page): Promise<ChallengeRow[]> {
  return queryRows<ChallengeRow[]>(
    db,
    sql`${challengeSelect(viewerId)}
        WHERE uc.user_id IS NOT NULL AND ${status}
        ORDER BY ${order}, dc.id LIMIT ${page.limit} OFFSET ${page.offset}`,
  );
}

export const challengesRepository = {
  /** A date's challenges as the viewer sees them, in the catalogue's order of kinds. */
  listOfDate(db: SqlClient, viewerId: string, date: string): Promise<ChallengeRow[]> {
    return queryRows<ChallengeRow[]>(
      db,
      sql`${challengeSelect(viewerId)} WHERE dc.date = ${date}::date ORDER BY array_position(${CHALLENGE_KIND_NAMES}::text[], dc.challenge_type)`,
    );
  },

  async findForViewer(db: SqlClient, viewerId: string, id: string): Promise<ChallengeRow | undefined> {
    const [row] = await queryRows<ChallengeRow[]>(db, sql`${challengeSelect(viewerId)} WHERE dc.id = ${uuid(id)}`);
    return row;
  },

  /** The viewer's running ones (joined, not completed, day not over at `now`), ending soonest first. */
  listRunning(db: SqlClient, viewerId: string, now: Date, page: Page): Promise<ChallengeRow[]> {
    return listJoined(db, viewerId, sql`NOT uc.is_completed AND uc.window_end > ${now.toISOString()}::timestamptz`, sql`uc.window_end ASC`, page);
  },

  /** The viewer's completed ones, newest first. */
  listCompleted(db: SqlClient, viewerId: string, page: Page): Promise<ChallengeRow[]> {
    return listJoined(db, viewerId, sql`uc.is_completed`, sql`uc.completed_at DESC`, page);
  },

  /** The viewer's friends in the challenge, furthest first (the first 100). */
  listFriendsIn(db: SqlClient, viewerId: string, id: string): Promise<FriendInChallengeRow[]> {
    return queryRows<FriendInChallengeRow[]>(
      db,
      sql`SELECT f.user_id::text, f.progress, f.is_completed, f.completed_at FROM ${friendsIn(uuid(viewerId), uuid(id))}
        ORDER BY f.progress DESC, f.completed_at ASC NULLS LAST, f.joined_at ASC LIMIT 100`,
    );
  },

  /** The challenge's date (YYYY-MM-DD); undefined when there is no such challenge. */
  async findDate(db: SqlClient, id: string): Promise<string | undefined> {
    const [challenge] = await queryRows<Array<{ date: string }>>(db, sql`SELECT to_char(date, 'YYYY-MM-DD') AS date FROM daily_challenges WHERE id = ${id}::uuid`);
    return challenge?.date;
  },

  /** Publishes the date's challenges, skipping the kinds it has already (idempotent, and safe from every copy at once); how many were new. */
  createForDate(db: SqlClient, date: string, challenges: readonly NewChallenge[]): Promise<number> {
    return executeSql(
      db,
      sql`INSERT INTO daily_challenges (id, title, description, target_value, challenge_type, date)
       SELECT gen_random_uuid(), k.title, k.description, k.target, k.kind, ${date}::date
         FROM unnest(${challenges.map((c) => c.kind)}::text[], ${challenges.map((c) => c.title)}::text[], ${challenges.map((c) => c.description)}::text[], ${challenges.map((c) => c.target)}::int[]) AS k(kind, title, description, target)
       ON CONFLICT (date, challenge_type) DO NOTHING`,
    );
  },

  /** Retires the dates before `date`. */
  async retireBefore(db: SqlClient, date: string): Promise<void> {
    await executeSql(db, sql`UPDATE daily_challenges SET is_active = false WHERE is_active AND date < ${date}::date`);
  },
};
