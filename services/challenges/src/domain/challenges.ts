import {
  CHALLENGE_KIND_NAMES,
  CHALLENGE_MESSAGES,
  type Challenge,
  type ChallengeDetail,
  type ChallengeKind,
  type CompletedChallenge,
  type MyChallengesQuery,
} from '@hoptrack/proto';
import { accessOf, audienceSql, conflict, forbidden, identifier, notFound, queryRows, sql, uuid, type Sql, type SqlClient } from '@hoptrack/runtime';
import type { PrismaClient } from '../db';
import type { ChallengeGenerator } from '../generator/generator';
import type { Clock } from './clock';
import { dateIn, dayWindow } from './days';
import { challengePeople } from './people';
import type { Progress } from './progress';

interface ChallengeRow {
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

interface Page {
  limit: number;
  offset: number;
}

export const UTC = 'UTC';

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


/** Today's challenges, joining, and the lists of one's own and a profile's completed ones. */
export class Challenges {
  constructor(
    private readonly deps: { prisma: PrismaClient; progress: Progress; generator: ChallengeGenerator; clock: Clock; onEventsCommitted: () => void },
  ) {}

  /** The challenges of the viewer's today (in their zone), published on demand if the generator has not run yet. */
  async today(viewerId: string, timeZone = UTC): Promise<Challenge[]> {
    const date = dateIn(this.deps.clock(), timeZone);
    let rows = await this.ofDate(viewerId, date);
    if (rows.length === 0) {
      await this.deps.generator.ensureDate(date);
      rows = await this.ofDate(viewerId, date);
    }
    return rows.map((row) => this.view(row, timeZone));
  }

  /** One challenge's page: the viewer's card and their friends in it, furthest first. */
  async detail(viewerId: string, id: string, timeZone = UTC): Promise<ChallengeDetail> {
    const row = await this.row(this.deps.prisma, viewerId, id);
    const friends = await queryRows<Array<{ user_id: string; progress: number; is_completed: boolean; completed_at: Date | null }>>(
      this.deps.prisma,
      sql`SELECT f.user_id::text, f.progress, f.is_completed, f.completed_at FROM ${friendsIn(uuid(viewerId), uuid(id))}
        ORDER BY f.progress DESC, f.completed_at ASC NULLS LAST, f.joined_at ASC LIMIT 100`,
    );
    const person = await challengePeople(this.deps.prisma, friends.map((f) => f.user_id));
    return {
      ...this.view(row, timeZone),
      participants: friends.map((f) => ({ person: person(f.user_id), progress: f.progress, isCompleted: f.is_completed, completedAt: f.completed_at?.toISOString() ?? null })),
    };
  }

  /** Joins (again: no change) in the viewer's zone; what they logged earlier that day counts at once. */
  async join(viewerId: string, id: string, timeZone = UTC, requestId?: string): Promise<Challenge> {
    await this.deps.prisma.$transaction((tx) => this.joinIn(tx, viewerId, id, timeZone, requestId));
    // Joining may complete it at once (what was logged earlier that day counts): its event is in the outbox.
    this.deps.onEventsCommitted();
    return this.view(await this.row(this.deps.prisma, viewerId, id), timeZone);
  }

  /**
   * Joining inside a transaction (an accepted invitation joins too). A day
   * that has ended in the zone cannot be joined; one not begun yet can (its
   * window simply has not opened).
   */
  async joinIn(tx: SqlClient, userId: string, id: string, timeZone: string, requestId?: string): Promise<{ windowEnd: Date }> {
    const [challenge] = await tx.$queryRawUnsafe<Array<{ date: string }>>(`SELECT to_char(date, 'YYYY-MM-DD') AS date FROM daily_challenges WHERE id = $1::uuid`, id);
    if (!challenge) throw notFound('Challenge not found');
    const [existing] = await tx.$queryRawUnsafe<Array<{ window_end: Date }>>(
      `SELECT window_end FROM user_challenges WHERE user_id = $1::uuid AND challenge_id = $2::uuid`,
      userId,
      id,
    );
    if (existing) return { windowEnd: existing.window_end };
    const now = this.deps.clock();
    const window = dayWindow(challenge.date, timeZone);
    if (now >= window.end) throw conflict(CHALLENGE_MESSAGES.ended);
    await this.deps.progress.lock(tx, userId);
    await tx.$executeRawUnsafe(
      `INSERT INTO user_challenges (id, user_id, challenge_id, time_zone, window_start, window_end)
       VALUES (gen_random_uuid(), $1::uuid, $2::uuid, $3, $4::timestamptz, $5::timestamptz) ON CONFLICT (user_id, challenge_id) DO NOTHING`,
      userId,
      id,
      timeZone,
      window.start.toISOString(),
      window.end.toISOString(),
    );
    await this.deps.progress.recompute(tx, { userId, at: now }, now, requestId);
    return { windowEnd: window.end };
  }

  /** The viewer's own: running (joined, not completed, day not over) or completed, newest first. */
  async mine(viewerId: string, query: MyChallengesQuery): Promise<Challenge[]> {
    const running = query.status === 'current';
    const status = running ? sql`NOT uc.is_completed AND uc.window_end > ${this.deps.clock().toISOString()}::timestamptz` : sql`uc.is_completed`;
    const order = running ? sql`uc.window_end ASC` : sql`uc.completed_at DESC`;
    const rows = await queryRows<ChallengeRow[]>(
      this.deps.prisma,
      sql`${challengeSelect(viewerId)}
        WHERE uc.user_id IS NOT NULL AND ${status}
        ORDER BY ${order}, dc.id LIMIT ${query.limit} OFFSET ${query.offset}`,
    );
    return rows.map((row) => this.view(row, UTC));
  }

  /** A profile's completed challenges: private profiles to friends only (403), blocked people see nothing (404). */
  async completedOf(viewerId: string, userId: string, page: Page): Promise<CompletedChallenge[]> {
    const access = await accessOf(this.deps.prisma, viewerId, userId);
    if (access === 'blocked' || access === 'unknown') throw notFound('User not found');
    if (access === 'private') throw forbidden('This profile is private');
    const rows = await this.deps.prisma.$queryRawUnsafe<Array<{ id: string; title: string; challenge_type: ChallengeKind; date: string; completed_at: Date }>>(
      `SELECT dc.id::text, dc.title, dc.challenge_type, to_char(dc.date, 'YYYY-MM-DD') AS date, uc.completed_at
         FROM user_challenges uc JOIN daily_challenges dc ON dc.id = uc.challenge_id
        WHERE uc.user_id = $1::uuid AND uc.is_completed ORDER BY uc.completed_at DESC, dc.id LIMIT $2 OFFSET $3`,
      userId,
      page.limit,
      page.offset,
    );
    return rows.map((r) => ({ id: r.id, title: r.title, challengeType: r.challenge_type, date: r.date, completedAt: r.completed_at.toISOString() }));
  }

  private ofDate(viewerId: string, date: string): Promise<ChallengeRow[]> {
    return queryRows<ChallengeRow[]>(
      this.deps.prisma,
      sql`${challengeSelect(viewerId)} WHERE dc.date = ${date}::date ORDER BY array_position(${CHALLENGE_KIND_NAMES}::text[], dc.challenge_type)`,
    );
  }

  private async row(db: SqlClient, viewerId: string, id: string): Promise<ChallengeRow> {
    const [row] = await queryRows<ChallengeRow[]>(db, sql`${challengeSelect(viewerId)} WHERE dc.id = ${uuid(id)}`);
    if (!row) throw notFound('Challenge not found');
    return row;
  }

  private view(row: ChallengeRow, timeZone: string): Challenge {
    return {
      id: row.id,
      title: row.title,
      description: row.description,
      challengeType: row.challenge_type,
      targetValue: row.target_value,
      date: row.date,
      isActive: row.is_active,
      endsAt: (row.window_end ?? dayWindow(row.date, timeZone).end).toISOString(),
      joined: row.progress !== null,
      progress: row.progress ?? 0,
      isCompleted: row.is_completed ?? false,
      completedAt: row.completed_at?.toISOString() ?? null,
      friendCount: row.friend_count,
    };
  }
}
