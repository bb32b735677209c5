import { CHALLENGE_MESSAGES, type Challenge, type ChallengeDetail, type CompletedChallenge, type MyChallengesQuery } from '@hoptrack/proto';
import { accessOf, conflict, forbidden, notFound, type SqlClient } from '@hoptrack/runtime';
import type { PrismaClient } from '../db';
import type { ChallengeGenerator } from '../generator/generator';
import { challengesRepository, type ChallengeRow, type Page } from '../repositories/challenges.repository';
import { participationsRepository, type ParticipationWindow } from '../repositories/participations.repository';
import type { Clock } from './clock';
import { clipWindow, dateIn, dayWindow } from './days';
import { challengePeople } from './people';
import type { Progress } from './progress';

export const UTC = 'UTC';

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
    const friends = await challengesRepository.listFriendsIn(this.deps.prisma, viewerId, id);
    const person = await challengePeople(this.deps.prisma, friends.map((f) => f.user_id));
    return {
      ...this.view(row, timeZone),
      participants: friends.map((f) => ({ person: person(f.user_id), progress: f.progress, isCompleted: f.is_completed, completedAt: f.completed_at?.toISOString() ?? null })),
    };
  }

  /** Joins (again: no change) in the viewer's zone, or their day's if they are in a challenge of that date already; only what happens from now on counts. */
  async join(viewerId: string, id: string, timeZone = UTC, requestId?: string): Promise<Challenge> {
    await this.deps.prisma.$transaction((tx) => this.joinIn(tx, viewerId, id, timeZone, requestId));
    // The join's recompute may have moved another challenge of the person's (a fact arriving late): its event is in the outbox.
    this.deps.onEventsCommitted();
    return this.view(await this.row(this.deps.prisma, viewerId, id), timeZone);
  }

  /**
   * Joining inside a transaction (an accepted invitation joins too). A day
   * that has ended for the person (in the zone, cut to their other days:
   * windowOf) cannot be joined; one not begun yet can (its window simply has
   * not opened).
   */
  async joinIn(tx: SqlClient, userId: string, id: string, timeZone: string, requestId?: string): Promise<{ windowEnd: Date }> {
    const date = await challengesRepository.findDate(tx, id);
    if (date === undefined) throw notFound('Challenge not found');
    // Before reading the person's windows: two joins at once (two dates, or two zones of one) would each fit theirs around a snapshot without the other's.
    await this.deps.progress.lock(tx, userId);
    const existing = await participationsRepository.findWindowEnd(tx, userId, id);
    if (existing) return { windowEnd: existing };
    const now = this.deps.clock();
    const window = await this.windowOf(tx, userId, date, timeZone);
    if (window.windowStart >= window.windowEnd || now >= window.windowEnd) throw conflict(CHALLENGE_MESSAGES.ended);
    await participationsRepository.join(tx, { userId, challengeId: id, ...window, joinedAt: now });
    await this.deps.progress.recompute(tx, { userId, at: now }, now, requestId);
    return { windowEnd: window.windowEnd };
  }

  /**
   * The window a person's new participation of `date` counts in. Naming
   * another zone must not buy time (issue 39): a day already joined keeps its
   * zone and window for every challenge of that date, and a new day is cut
   * to start where the person's previous day ended and end where their next
   * began, so one instant counts for one date of theirs, whatever zones they
   * name. A traveller's Tuesday starts when their Monday ended.
   */
  private async windowOf(tx: SqlClient, userId: string, date: string, timeZone: string): Promise<ParticipationWindow> {
    const around = await participationsRepository.findWindowsAround(tx, userId, date);
    if (around.sameDay) return around.sameDay;
    const { start, end } = clipWindow(dayWindow(date, timeZone), around.earlierEnd, around.laterStart);
    return { timeZone, windowStart: start, windowEnd: end };
  }

  /** The viewer's own: running (joined, not completed, day not over) or completed, newest first. */
  async mine(viewerId: string, query: MyChallengesQuery): Promise<Challenge[]> {
    const page = { limit: query.limit, offset: query.offset };
    const rows =
      query.status === 'current'
        ? await challengesRepository.listRunning(this.deps.prisma, viewerId, this.deps.clock(), page)
        : await challengesRepository.listCompleted(this.deps.prisma, viewerId, page);
    return rows.map((row) => this.view(row, UTC));
  }

  /** A profile's completed challenges: private profiles to friends only (403), blocked people see nothing (404). */
  async completedOf(viewerId: string, userId: string, page: Page): Promise<CompletedChallenge[]> {
    const access = await accessOf(this.deps.prisma, viewerId, userId);
    if (access === 'blocked' || access === 'unknown') throw notFound('User not found');
    if (access === 'private') throw forbidden('This profile is private');
    const rows = await participationsRepository.listCompletedOf(this.deps.prisma, userId, page);
    return rows.map((r) => ({ id: r.id, title: r.title, challengeType: r.challenge_type, date: r.date, completedAt: r.completed_at.toISOString() }));
  }

  private ofDate(viewerId: string, date: string): Promise<ChallengeRow[]> {
    return challengesRepository.listOfDate(this.deps.prisma, viewerId, date);
  }

  private async row(db: SqlClient, viewerId: string, id: string): Promise<ChallengeRow> {
    const row = await challengesRepository.findForViewer(db, viewerId, id);
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
