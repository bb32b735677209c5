import { randomUUID } from 'node:crypto';
import type { Challenge, ChallengeKind } from '@hoptrack/proto';
import { ok } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionFacts, startTestChallenges, type Client, type TestChallenges } from './support';

/**
 * Every kind's progress rule, through the events that already flow, and the
 * rules that make progress trustworthy: a replayed event never counts twice,
 * a deleted session takes its progress back, completion happens once.
 * The service's clock is fixed at noon UTC of 2026-06-15; people join in UTC.
 */
let service: TestChallenges;
const NOON = new Date('2026-06-15T12:00:00Z');
const hoursAfterNoon = (h: number) => new Date(NOON.getTime() + h * 3_600_000);
const YESTERDAY = new Date('2026-06-14T12:00:00Z');

beforeAll(async () => {
  service = await startTestChallenges({ now: NOON });
});
afterAll(() => service?.close());

async function joined(person: Client, kind: ChallengeKind): Promise<Challenge> {
  const today = ok<Challenge[]>(await person.get('/api/challenges?timeZone=UTC'));
  const challenge = today.find((c) => c.challengeType === kind);
  if (!challenge) throw new Error(`no ${kind} challenge today`);
  return ok<Challenge>(await person.post(`/api/challenges/${challenge.id}/join`, { timeZone: 'UTC' }));
}

async function progressOf(person: Client, id: string): Promise<Pick<Challenge, 'progress' | 'isCompleted'>> {
  const { progress, isCompleted } = ok<Challenge>(await person.get(`/api/challenges/${id}?timeZone=UTC`));
  return { progress, isCompleted };
}

describe('new styles', () => {
  it('counts styles never logged before, once each; a replay does not move it; a delete takes it back', async () => {
    const alice = await service.user();
    await service.publish('session.created.v1', sessionFacts(alice.id, YESTERDAY, { beerTypes: ['IPA'] }));
    const challenge = await joined(alice, 'new_styles');
    expect(challenge).toMatchObject({ title: 'Try 3 new styles', targetValue: 3, progress: 0, joined: true });

    // An old style (another spelling) does not count; a new one does, once however often it is logged.
    const first = await service.publish('session.created.v1', sessionFacts(alice.id, hoursAfterNoon(1), { beerTypes: ['ipa', 'Stout'] }));
    await service.publish('session.created.v1', sessionFacts(alice.id, hoursAfterNoon(2), { beerTypes: ['stout'] }));
    expect(await progressOf(alice, challenge.id)).toEqual({ progress: 1, isCompleted: false });

    await service.republish(first);
    expect(await progressOf(alice, challenge.id)).toEqual({ progress: 1, isCompleted: false });

    const sour = await service.publish('session.created.v1', sessionFacts(alice.id, hoursAfterNoon(3), { beerTypes: ['Sour'] }));
    expect(await progressOf(alice, challenge.id)).toEqual({ progress: 2, isCompleted: false });
    await service.publish('session.deleted.v1', { sessionId: sour.data.sessionId, userId: alice.id });
    expect(await progressOf(alice, challenge.id)).toEqual({ progress: 1, isCompleted: false });
    // The delete's create redelivered late (a new envelope of the same session) does not bring it back.
    await service.publish('session.created.v1', sour.data);
    expect(await progressOf(alice, challenge.id)).toEqual({ progress: 1, isCompleted: false });
  });

  it('completes once at the target, publishing challenge.completed.v1 once, and stays completed', async () => {
    const bob = await service.user();
    const challenge = await joined(bob, 'new_styles');
    await service.publish('session.created.v1', sessionFacts(bob.id, hoursAfterNoon(1), { beerTypes: ['Porter', 'Lager'] }));
    const third = await service.publish('session.created.v1', sessionFacts(bob.id, hoursAfterNoon(2), { beerTypes: ['Saison', 'Gose'] }));
    const done = ok<Challenge>(await bob.get(`/api/challenges/${challenge.id}`));
    expect(done).toMatchObject({ progress: 3, isCompleted: true, completedAt: NOON.toISOString() });

    // More styles, a replay, and a delete that leaves three new styles: the completion stays, announced once.
    await service.republish(third);
    await service.publish('session.created.v1', sessionFacts(bob.id, hoursAfterNoon(3), { beerTypes: ['Bock'] }));
    await service.publish('session.deleted.v1', { sessionId: third.data.sessionId, userId: bob.id });
    expect(await progressOf(bob, challenge.id)).toEqual({ progress: 3, isCompleted: true });
    const events = (await service.published('challenge.completed.v1')).filter((e) => e.data.userId === bob.id);
    expect(events.map((e) => e.data)).toEqual([{ challengeId: challenge.id, userId: bob.id, title: 'Try 3 new styles', date: '2026-06-15', completedAt: NOON.toISOString() }]);
    const completed = ok<Array<{ id: string }>>(await bob.get(`/api/users/${bob.id}/challenges`));
    expect(completed.map((c) => c.id)).toEqual([challenge.id]);
    // One's own lists: completed, and running (joined, not completed, day not over).
    expect(ok<Challenge[]>(await bob.get('/api/me/challenges?status=completed')).map((c) => [c.id, c.isCompleted])).toEqual([[challenge.id, true]]);
    const running = (await joined(bob, 'music_session')).id;
    expect(ok<Challenge[]>(await bob.get('/api/me/challenges')).map((c) => c.id)).toEqual([running]);
    expect(ok<Challenge[]>(await bob.get('/api/me/challenges?status=current&limit=1&offset=1'))).toEqual([]);
  });

  it('a burst of sessions, reviews and photos on three streams, each delivered twice, completes each challenge once', async () => {
    const ivy = await service.user();
    const kinds = ['new_styles', 'bar_review', 'album_photo'] as const;
    const challenges = await Promise.all(kinds.map((kind) => joined(ivy, kind)));
    const at = hoursAfterNoon(1);
    const envelopes = await Promise.all([
      ...['Dunkel', 'Helles', 'Märzen', 'Rauchbier', 'Schwarzbier'].map((style) =>
        service.publish('session.created.v1', sessionFacts(ivy.id, at, { beerTypes: [style] })),
      ),
      ...[1, 2, 3].map(() => service.publish('place.review.created.v1', { reviewId: randomUUID(), barId: randomUUID(), userId: ivy.id, createdAt: at.toISOString() })),
      ...[1, 2, 3].map(() => {
        const photoId = randomUUID();
        return service.publish('media.photo.stored.v1', { photoId, userId: ivy.id, albumId: randomUUID(), key: `albums/${photoId}` }, at);
      }),
    ]);
    await Promise.all(envelopes.map((envelope) => service.republish(envelope)));
    for (const challenge of challenges) expect(await progressOf(ivy, challenge.id)).toEqual({ progress: challenge.targetValue, isCompleted: true });
    const completions = (await service.published('challenge.completed.v1')).filter((e) => e.data.userId === ivy.id);
    expect(completions.map((e) => e.data.challengeId).sort()).toEqual(challenges.map((c) => c.id).sort());
  });

  it('counts only what happens after joining (issue 40): nothing logged earlier that day, nor on another day', async () => {
    const carol = await service.user();
    await service.publish('session.created.v1', sessionFacts(carol.id, hoursAfterNoon(-2), { beerTypes: ['Weizen'] }));
    await service.publish('session.created.v1', sessionFacts(carol.id, hoursAfterNoon(13), { beerTypes: ['Kölsch'] }));
    const challenge = await joined(carol, 'new_styles');
    // Before, joining at noon counted the morning's Weizen at once.
    expect(challenge.progress).toBe(0);
    // After joining: Weizen, first logged this morning, is not new any more; Gose is. Kölsch is tomorrow's.
    await service.publish('session.created.v1', sessionFacts(carol.id, hoursAfterNoon(1), { beerTypes: ['Weizen', 'Gose'] }));
    expect(await progressOf(carol, challenge.id)).toEqual({ progress: 1, isCompleted: false });
    const row = await service.prisma.userChallenge.findFirstOrThrow({ where: { userId: carol.id, challengeId: challenge.id } });
    expect([row.windowStart.toISOString(), row.countsFrom.toISOString()]).toEqual(['2026-06-15T00:00:00.000Z', NOON.toISOString()]);
  });

  it('a day not begun yet counts from its start; an event arriving after the join for a session before it does not count', async () => {
    const kim = await service.user();
    // The 16th in Kiritimati is today there; joined in UTC, where it has not begun, its window is the UTC 16th.
    const tomorrow = ok<Challenge[]>(await kim.get('/api/challenges?timeZone=Pacific/Kiritimati')).find((c) => c.challengeType === 'music_session');
    if (!tomorrow) throw new Error('no music_session in Kiritimati');
    ok(await kim.post(`/api/challenges/${tomorrow.id}/join`, { timeZone: 'UTC' }));
    const row = await service.prisma.userChallenge.findFirstOrThrow({ where: { userId: kim.id, challengeId: tomorrow.id } });
    expect([row.windowStart.toISOString(), row.countsFrom.toISOString()]).toEqual(['2026-06-16T00:00:00.000Z', '2026-06-16T00:00:00.000Z']);
    await service.publish('session.created.v1', sessionFacts(kim.id, hoursAfterNoon(13), { hasMusic: true }));
    expect(await progressOf(kim, tomorrow.id)).toEqual({ progress: 1, isCompleted: true });

    // Today's, joined at noon: a session of 11:00 whose event comes only now is from before the join.
    const today = await joined(kim, 'music_session');
    await service.publish('session.created.v1', sessionFacts(kim.id, hoursAfterNoon(-1), { hasMusic: true }));
    expect(await progressOf(kim, today.id)).toEqual({ progress: 0, isCompleted: false });
  });
});

describe('completions follow their evidence (issue 39)', () => {
  const withdrawalsOf = async (person: Client) => (await service.published('challenge.completion.withdrawn.v1')).filter((e) => e.data.userId === person.id).map((e) => e.data);
  const completionsOf = async (person: Client) => (await service.published('challenge.completed.v1')).filter((e) => e.data.userId === person.id).map((e) => e.data.challengeId);
  const badgesOf = async (person: Client) => ok<Array<{ id: string }>>(await person.get(`/api/users/${person.id}/challenges`)).map((c) => c.id);

  it('deleting the session that completed a challenge takes the completion back, withdrawn once; new evidence completes it again', async () => {
    const ida = await service.user();
    const challenge = await joined(ida, 'music_session');
    const session = await service.publish('session.created.v1', sessionFacts(ida.id, hoursAfterNoon(1), { hasMusic: true }));
    expect(await badgesOf(ida)).toEqual([challenge.id]);

    const deleted = await service.publish('session.deleted.v1', { sessionId: session.data.sessionId, userId: ida.id });
    expect(ok<Challenge>(await ida.get(`/api/challenges/${challenge.id}`))).toMatchObject({ progress: 0, isCompleted: false, completedAt: null });
    expect(await badgesOf(ida)).toEqual([]);
    expect(ok<Challenge[]>(await ida.get('/api/me/challenges?status=completed'))).toEqual([]);
    expect(ok<Challenge[]>(await ida.get('/api/me/challenges')).map((c) => c.id)).toEqual([challenge.id]);
    expect(await withdrawalsOf(ida)).toEqual([{ challengeId: challenge.id, userId: ida.id }]);

    // Redelivered, the delete changes nothing and announces nothing again.
    await service.republish(deleted);
    expect(await withdrawalsOf(ida)).toHaveLength(1);
    expect(await completionsOf(ida)).toEqual([challenge.id]);

    // A new session is new evidence: completed again, and announced again.
    await service.publish('session.created.v1', sessionFacts(ida.id, hoursAfterNoon(2), { hasMusic: true }));
    expect(await progressOf(ida, challenge.id)).toEqual({ progress: 1, isCompleted: true });
    expect(await completionsOf(ida)).toEqual([challenge.id, challenge.id]);
  });

  it('a completion whose other evidence still meets the target stays, with its completed_at; an edit that takes the last away withdraws it', async () => {
    const jon = await service.user();
    const challenge = await joined(jon, 'music_session');
    const first = await service.publish('session.created.v1', sessionFacts(jon.id, hoursAfterNoon(1), { hasMusic: true }));
    service.clock.advance(3_600_000);
    try {
      const second = await service.publish('session.created.v1', sessionFacts(jon.id, hoursAfterNoon(2), { hasMusic: true }));
      await service.publish('session.deleted.v1', { sessionId: first.data.sessionId, userId: jon.id });
      expect(ok<Challenge>(await jon.get(`/api/challenges/${challenge.id}`))).toMatchObject({ progress: 1, isCompleted: true, completedAt: NOON.toISOString() });
      expect(await withdrawalsOf(jon)).toEqual([]);
      expect(await completionsOf(jon)).toEqual([challenge.id]);

      // The track taken off the other session: nothing is left to count.
      const later = new Date(Date.parse(second.data.updatedAt) + 1000).toISOString();
      await service.publish('session.updated.v1', { ...second.data, hasMusic: false, updatedAt: later });
      expect(await progressOf(jon, challenge.id)).toEqual({ progress: 0, isCompleted: false });
      expect(await withdrawalsOf(jon)).toEqual([{ challengeId: challenge.id, userId: jon.id }]);
    } finally {
      service.clock.advance(-3_600_000);
    }
  });
});

describe('the other kinds', () => {
  it('new bar: a place none of the earlier sessions was at', async () => {
    const dan = await service.user();
    await service.publish('session.created.v1', sessionFacts(dan.id, YESTERDAY, { location: 'The Crown' }));
    const challenge = await joined(dan, 'new_bar');
    await service.publish('session.created.v1', sessionFacts(dan.id, hoursAfterNoon(1), { location: ' the crown ' }));
    await service.publish('session.created.v1', sessionFacts(dan.id, hoursAfterNoon(1), { location: null }));
    expect(await progressOf(dan, challenge.id)).toEqual({ progress: 0, isCompleted: false });
    await service.publish('session.created.v1', sessionFacts(dan.id, hoursAfterNoon(2), { location: 'Café Vlissinghe' }));
    expect(await progressOf(dan, challenge.id)).toEqual({ progress: 1, isCompleted: true });
  });

  it('bar review: a review counts, its deletion takes it back', async () => {
    const erin = await service.user();
    const challenge = await joined(erin, 'bar_review');
    const review = { reviewId: randomUUID(), barId: randomUUID(), userId: erin.id, createdAt: hoursAfterNoon(-13).toISOString() };
    await service.publish('place.review.created.v1', review);
    expect((await progressOf(erin, challenge.id)).progress).toBe(0);
    const today = { ...review, reviewId: randomUUID(), createdAt: hoursAfterNoon(1).toISOString() };
    await service.publish('place.review.deleted.v1', { reviewId: today.reviewId, barId: today.barId, userId: erin.id });
    // Deleted before its create arrived: the tombstone keeps the late create out.
    await service.publish('place.review.created.v1', today);
    expect((await progressOf(erin, challenge.id)).progress).toBe(0);
    await service.publish('place.review.created.v1', { ...today, reviewId: randomUUID() });
    expect(await progressOf(erin, challenge.id)).toEqual({ progress: 1, isCompleted: true });
  });

  it('album photo: a stored photo counts; a deleted one does not', async () => {
    const fay = await service.user();
    const challenge = await joined(fay, 'album_photo');
    const photo = { photoId: randomUUID(), userId: fay.id, albumId: randomUUID() };
    // Its delete handled before its store (a redelivery): the tombstone keeps it out.
    await service.publish('media.photo.deleted.v1', photo, hoursAfterNoon(1));
    await service.publish('media.photo.stored.v1', { ...photo, key: `albums/${photo.photoId}` }, hoursAfterNoon(-1));
    expect((await progressOf(fay, challenge.id)).progress).toBe(0);
    const other = randomUUID();
    await service.publish('media.photo.stored.v1', { ...photo, photoId: other, key: `albums/${other}` }, hoursAfterNoon(2));
    expect(await progressOf(fay, challenge.id)).toEqual({ progress: 1, isCompleted: true });
  });

  it('music session: a session with a track, and an update that adds one', async () => {
    const gus = await service.user();
    const challenge = await joined(gus, 'music_session');
    const silent = await service.publish('session.created.v1', sessionFacts(gus.id, hoursAfterNoon(1)));
    expect((await progressOf(gus, challenge.id)).progress).toBe(0);
    const later = new Date(new Date(silent.data.updatedAt).getTime() + 1000).toISOString();
    // An older update arriving after a newer one changes nothing.
    await service.publish('session.updated.v1', { ...silent.data, hasMusic: false, updatedAt: later });
    await service.publish('session.updated.v1', { ...silent.data, hasMusic: true, updatedAt: silent.data.updatedAt });
    expect((await progressOf(gus, challenge.id)).progress).toBe(0);
    await service.publish('session.updated.v1', { ...silent.data, hasMusic: true, updatedAt: new Date(Date.parse(later) + 1000).toISOString() });
    expect(await progressOf(gus, challenge.id)).toEqual({ progress: 1, isCompleted: true });
  });

  it('slow pace: at least 45 minutes per beer, never a count of beers', async () => {
    const hal = await service.user();
    const challenge = await joined(hal, 'slow_pace');
    await service.publish('session.created.v1', sessionFacts(hal.id, hoursAfterNoon(1), { beerCount: 4, duration: 120 }));
    expect((await progressOf(hal, challenge.id)).progress).toBe(0);
    await service.publish('session.created.v1', sessionFacts(hal.id, hoursAfterNoon(2), { beerCount: 2, duration: 90 }));
    expect(await progressOf(hal, challenge.id)).toEqual({ progress: 1, isCompleted: true });
  });
});
