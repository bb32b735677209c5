import { CHALLENGE_KIND_NAMES, CHALLENGE_KINDS, type ChallengeKind } from '@hoptrack/proto';
import type { Logger } from '@hoptrack/runtime';
import type { PrismaClient } from '../db';
import { addDays, dateIn } from '../domain/days';
import { challengesRepository } from '../repositories/challenges.repository';

/**
 * The kinds a date gets: a shuffle of the catalogue seeded by the date, so
 * every copy of the service (and every rerun) picks the same ones, and
 * consecutive days differ.
 */
export function kindsFor(date: string, perDay: number): ChallengeKind[] {
  const kinds = [...CHALLENGE_KIND_NAMES];
  let seed = Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000) >>> 0;
  for (let i = kinds.length - 1; i > 0; i--) {
    // A linear congruential step: deterministic, and enough to vary six kinds.
    seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
    const j = seed % (i + 1);
    [kinds[i], kinds[j]] = [kinds[j]!, kinds[i]!];
  }
  return kinds.slice(0, perDay);
}

/**
 * Publishes each date's challenges. Time zones run from UTC-12 to UTC+14, so
 * at any instant "today" is one of three UTC dates: yesterday, today or
 * tomorrow. Each run makes sure all three exist (an insert that skips what is
 * there: idempotent per date, and safe from every copy at once) and retires
 * the dates that have ended everywhere.
 */
export class ChallengeGenerator {
  constructor(
    private readonly deps: { prisma: PrismaClient; perDay: number; logger: Logger },
  ) {}

  async ensureAround(at: Date): Promise<void> {
    const today = dateIn(at, 'UTC');
    let created = 0;
    for (const date of [addDays(today, -1), today, addDays(today, 1)]) created += await this.ensureDate(date);
    // A date has ended everywhere once UTC+-12's day is over: two days after it in UTC at the latest.
    await challengesRepository.retireBefore(this.deps.prisma, addDays(today, -1));
    if (created > 0) this.deps.logger.info({ today, created }, 'daily challenges published');
  }

  /** The date's challenges, created if missing; how many were new. */
  async ensureDate(date: string): Promise<number> {
    const challenges = kindsFor(date, this.deps.perDay).map((kind) => ({
      kind,
      title: CHALLENGE_KINDS[kind].title,
      description: CHALLENGE_KINDS[kind].description,
      target: CHALLENGE_KINDS[kind].targetValue,
    }));
    return challengesRepository.createForDate(this.deps.prisma, date, challenges);
  }
}
