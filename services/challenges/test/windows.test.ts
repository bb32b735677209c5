import { CHALLENGE_MESSAGES, type Challenge, type ChallengeInvitation, type ChallengeKind } from '@hoptrack/proto';
import { expectError, ok } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { befriend, sessionFacts, startTestChallenges, type Client, type TestChallenges } from './support';

/**
 * Issue 39, finding 10: one zone per person and day, and days that never
 * overlap. Joining two dates in far-apart zones made one instant count for
 * both (UTC+14's day begins 25 hours before UTC-11's ends); a second
 * challenge of a date joined in another zone got a window of its own.
 * The clock is fixed at noon UTC of 2026-06-15: it is 02:00 of the 16th in
 * Pacific/Kiritimati (UTC+14) and 01:00 of the 15th in Pacific/Pago_Pago (UTC-11).
 */
let service: TestChallenges;
const NOON = new Date('2026-06-15T12:00:00Z');
const EAST = 'Pacific/Kiritimati';
const WEST = 'Pacific/Pago_Pago';

beforeAll(async () => {
  service = await startTestChallenges({ now: NOON });
});
afterAll(() => service?.close());

/** The challenge of the kind on the zone's today. */
async function todays(person: Client, timeZone: string, kind: ChallengeKind = 'music_session'): Promise<Challenge> {
  const found = ok<Challenge[]>(await person.get(`/api/challenges?timeZone=${encodeURIComponent(timeZone)}`)).find((c) => c.challengeType === kind);
  if (!found) throw new Error(`no ${kind} today in ${timeZone}`);
  return found;
}

const join = (person: Client, challenge: Challenge, timeZone: string) => person.post(`/api/challenges/${challenge.id}/join`, { timeZone });

/** The person's participations by challenge date: the zone and window each counts in. */
async function windowsOf(person: Client): Promise<Record<string, { timeZone: string; start: string; end: string }>> {
  const rows = await service.prisma.userChallenge.findMany({ where: { userId: person.id }, include: { challenge: { select: { date: true } } } });
  return Object.fromEntries(
    rows.map((r) => [r.challenge.date.toISOString().slice(0, 10), { timeZone: r.timeZone, start: r.windowStart.toISOString(), end: r.windowEnd.toISOString() }]),
  );
}

async function progressOf(person: Client, id: string): Promise<Pick<Challenge, 'progress' | 'isCompleted'>> {
  const { progress, isCompleted } = ok<Challenge>(await person.get(`/api/challenges/${id}`));
  return { progress, isCompleted };
}

const musicSession = (person: Client, at: Date) => service.publish('session.created.v1', sessionFacts(person.id, at, { hasMusic: true }));

describe('days that never overlap', () => {
  it('two dates joined in zones 25 hours apart: the second is refused, in either order, and one session completes one', async () => {
    const [ann, ben] = [await service.user(), await service.user()];
    const [east, west] = [await todays(ann, EAST), await todays(ann, WEST)];
    expect([east.date, west.date]).toEqual(['2026-06-16', '2026-06-15']);

    // Kiritimati's 16th began at 10:00 UTC on the 15th: Pago Pago's 15th would have to end then, and that has passed.
    expect(ok<Challenge>(await join(ann, east, EAST)).endsAt).toBe('2026-06-16T10:00:00.000Z');
    expectError(await join(ann, west, WEST), 409, { message: CHALLENGE_MESSAGES.ended });
    // Pago Pago's 15th ends at 11:00 UTC on the 16th: Kiritimati's 16th would have to begin then, after it ends.
    ok(await join(ben, west, WEST));
    expectError(await join(ben, east, EAST), 409, { message: CHALLENGE_MESSAGES.ended });

    await musicSession(ann, NOON);
    await musicSession(ben, NOON);
    expect(await progressOf(ann, east.id)).toEqual({ progress: 1, isCompleted: true });
    expect(ok<Challenge>(await ann.get(`/api/challenges/${west.id}`)).joined).toBe(false);
    expect(await progressOf(ben, west.id)).toEqual({ progress: 1, isCompleted: true });
    expect(ok<Challenge>(await ben.get(`/api/challenges/${east.id}`)).joined).toBe(false);
    const completions = (await service.published('challenge.completed.v1')).filter((e) => e.data.userId === ann.id || e.data.userId === ben.id);
    expect(completions).toHaveLength(2);
  });

  it('a later date starts where the earlier one ended, and the session counts for the day it fell in', async () => {
    const cai = await service.user();
    const [today, tomorrow] = [await todays(cai, 'UTC'), await todays(cai, EAST)];
    ok(await join(cai, today, 'UTC'));
    // Kiritimati's 16th is [10:00 UTC on the 15th, 10:00 UTC on the 16th): cut to begin when the UTC 15th ended.
    expect(ok<Challenge>(await join(cai, tomorrow, EAST)).endsAt).toBe('2026-06-16T10:00:00.000Z');
    expect(await windowsOf(cai)).toEqual({
      '2026-06-15': { timeZone: 'UTC', start: '2026-06-15T00:00:00.000Z', end: '2026-06-16T00:00:00.000Z' },
      '2026-06-16': { timeZone: EAST, start: '2026-06-16T00:00:00.000Z', end: '2026-06-16T10:00:00.000Z' },
    });

    await musicSession(cai, NOON);
    expect(await progressOf(cai, today.id)).toEqual({ progress: 1, isCompleted: true });
    expect(await progressOf(cai, tomorrow.id)).toEqual({ progress: 0, isCompleted: false });
    await musicSession(cai, new Date('2026-06-16T01:00:00Z'));
    expect(await progressOf(cai, tomorrow.id)).toEqual({ progress: 1, isCompleted: true });
  });

  it('an earlier date joined after a later one ends where the later begins', async () => {
    const dee = await service.user();
    const [today, tomorrow] = [await todays(dee, WEST), await todays(dee, EAST)];
    // The 16th, not begun in UTC yet: it may be joined, and begins at midnight UTC.
    ok(await join(dee, tomorrow, 'UTC'));
    expect(ok<Challenge>(await join(dee, today, WEST)).endsAt).toBe('2026-06-16T00:00:00.000Z');
    expect(await windowsOf(dee)).toEqual({
      '2026-06-15': { timeZone: WEST, start: '2026-06-15T11:00:00.000Z', end: '2026-06-16T00:00:00.000Z' },
      '2026-06-16': { timeZone: 'UTC', start: '2026-06-16T00:00:00.000Z', end: '2026-06-17T00:00:00.000Z' },
    });
  });
});

describe('one zone per person and day', () => {
  it("a second challenge of a date joined in another zone takes the first's zone and window", async () => {
    const eve = await service.user();
    const [music, styles] = [await todays(eve, 'UTC'), await todays(eve, WEST, 'new_styles')];
    expect(styles.date).toBe(music.date);
    ok(await join(eve, music, 'UTC'));
    expect(ok<Challenge>(await join(eve, styles, WEST)).endsAt).toBe('2026-06-16T00:00:00.000Z');
    const rows = await service.prisma.userChallenge.findMany({ where: { userId: eve.id } });
    expect(rows.map((r) => [r.timeZone, r.windowStart.toISOString(), r.windowEnd.toISOString()])).toEqual([
      ['UTC', '2026-06-15T00:00:00.000Z', '2026-06-16T00:00:00.000Z'],
      ['UTC', '2026-06-15T00:00:00.000Z', '2026-06-16T00:00:00.000Z'],
    ]);
  });

  it("accepting an invitation to a day already joined takes that day's zone too", async () => {
    const [fox, gil] = [await service.user(), await service.user()];
    await befriend(service, fox, gil);
    ok(await join(gil, await todays(gil, WEST), WEST));
    const styles = await todays(fox, 'UTC', 'new_styles');
    const invitation = ok<ChallengeInvitation>(await fox.post(`/api/challenges/${styles.id}/invitations?timeZone=UTC`, { friendId: gil.id }), 201);
    ok(await gil.patch(`/api/challenge-invitations/${invitation.id}`, { action: 'accept', timeZone: 'UTC' }));
    expect(ok<Challenge>(await gil.get(`/api/challenges/${styles.id}`)).endsAt).toBe('2026-06-16T11:00:00.000Z');
    const rows = await service.prisma.userChallenge.findMany({ where: { userId: gil.id } });
    expect(rows.map((r) => r.timeZone)).toEqual([WEST, WEST]);
  });
});
