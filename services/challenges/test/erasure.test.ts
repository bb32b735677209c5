import { randomUUID } from 'node:crypto';
import type { Challenge, ChallengeDetail, ChallengeInvitation, ChallengeInvitations } from '@hoptrack/proto';
import { ok, readEvents } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { befriend, sessionFacts, startTestChallenges, type Client, type TestChallenges } from './support';

/**
 * Account deletion (issue 24), challenges' part: on user.deleted.v1 the
 * person's challenges, the invitations they sent and received, and the facts
 * (tombstones too) kept of their sessions, reviews and photos go; the others'
 * challenges, invitations and progress stay as they were, and a late event
 * about the person (the erased_people guard) brings nothing back.
 */
let service: TestChallenges;
const NOON = new Date('2026-06-15T12:00:00Z');
const hoursAfterNoon = (h: number) => new Date(NOON.getTime() + h * 3_600_000);

beforeAll(async () => {
  // The definition's own erasure consumer, beside the read models' and progress'.
  service = await startTestChallenges({ now: NOON, consumers: ['audience', 'progress', 'erasure'] });
});
afterAll(() => service?.close());

/** Every table of the service's database, by its rows' text: how many rows name `needle`. */
async function rowsNaming(needle: string): Promise<Record<string, number>> {
  const tables = await service.prisma.$queryRawUnsafe<Array<{ name: string }>>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT LIKE '\\_prisma%' ORDER BY 1`,
  );
  expect(tables.map((r) => r.name)).toEqual(
    expect.arrayContaining(['user_challenges', 'challenge_invitations', 'session_facts', 'review_facts', 'photo_facts', 'users', 'follows', 'outbox', 'erased_people']),
  );
  const found: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = await service.prisma.$queryRawUnsafe<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM "${name}" t WHERE t::text ILIKE $1`, `%${needle}%`);
    if ((row?.n ?? 0) > 0) found[name] = row?.n ?? 0;
  }
  return found;
}

const erasedReports = async (userId: string) =>
  (await readEvents(service.bus, 'USERS', 'user.erased.v1')).filter((e) => e.data.userId === userId && e.data.service === 'challenges').length;

async function deleteAccount(userId: string, n: number): Promise<void> {
  await service.publish('user.deleted.v1', { userId });
  await expect.poll(() => erasedReports(userId)).toBe(n);
}

async function todays(person: Client, kind: string): Promise<Challenge> {
  const found = ok<Challenge[]>(await person.get('/api/challenges?timeZone=UTC')).find((c) => c.challengeType === kind);
  if (!found) throw new Error(`no ${kind} today`);
  return found;
}

const join = async (person: Client, challenge: Challenge) => ok<Challenge>(await person.post(`/api/challenges/${challenge.id}/join`, { timeZone: 'UTC' }));
const invite = async (from: Client, challenge: Challenge, to: Client) =>
  ok<ChallengeInvitation>(await from.post(`/api/challenges/${challenge.id}/invitations?timeZone=UTC`, { friendId: to.id }), 201);
const invitations = async (person: Client) => {
  const { sent, received } = ok<ChallengeInvitations>(await person.get('/api/challenge-invitations'));
  return { sent: sent.map((i) => [i.from.id, i.to.id, i.status]), received: received.map((i) => [i.from.id, i.to.id, i.status]) };
};

/** What Bob and Carol see: their challenges, the participants and their progress, their invitations. */
async function othersView(bob: Client, carol: Client, challenge: Challenge) {
  const detail = async (who: Client) => {
    const d = ok<ChallengeDetail>(await who.get(`/api/challenges/${challenge.id}?timeZone=UTC`));
    return { progress: d.progress, joined: d.joined, friendCount: d.friendCount, participants: d.participants.map((p) => [p.person.id, p.progress]) };
  };
  return {
    bob: await detail(bob),
    carol: await detail(carol),
    bobsChallenges: ok<Challenge[]>(await bob.get('/api/me/challenges')).map((c) => [c.id, c.progress]),
    bobsInvitations: await invitations(bob),
    carolsInvitations: await invitations(carol),
  };
}

describe('user.deleted.v1', () => {
  it('erases the person’s challenges, invitations and facts; the others’ stay as they were; late events bring nothing back', async () => {
    const alice = await service.user({ displayName: 'Alice Erased' });
    const bob = await service.user({ displayName: 'Bob' });
    const carol = await service.user({ displayName: 'Carol' });
    await befriend(service, alice, bob);
    await befriend(service, alice, carol);
    await befriend(service, bob, carol);
    const styles = await todays(alice, 'new_styles');
    const reviews = await todays(alice, 'bar_review');
    const music = await todays(alice, 'music_session');

    // Alice: in two challenges, with sessions (one deleted: a tombstone), a review and a photo.
    await join(alice, styles);
    await join(alice, reviews);
    const deleted = await service.publish('session.created.v1', sessionFacts(alice.id, hoursAfterNoon(1), { beerTypes: ['Porter'] }));
    await service.publish('session.deleted.v1', { sessionId: deleted.data.sessionId, userId: alice.id });
    await service.publish('session.created.v1', sessionFacts(alice.id, hoursAfterNoon(1), { beerTypes: ['Gose', 'Mild'] }));
    await service.publish('place.review.created.v1', { reviewId: randomUUID(), barId: randomUUID(), userId: alice.id, createdAt: hoursAfterNoon(1).toISOString() });
    await service.publish('media.photo.stored.v1', { photoId: randomUUID(), userId: alice.id, albumId: randomUUID(), key: `albums/${randomUUID()}.jpg` });
    // Invitations both ways: Alice invites Bob, Carol invites Alice (to one she is not in); Bob invites Carol (nothing of Alice's).
    await invite(alice, styles, bob);
    await invite(carol, music, alice);
    await invite(bob, styles, carol);
    // Bob is in too, with progress of his own.
    await service.publish('session.created.v1', sessionFacts(bob.id, hoursAfterNoon(1), { beerTypes: ['Stout'] }));
    expect(ok<Challenge>(await alice.get(`/api/challenges/${styles.id}?timeZone=UTC`))).toMatchObject({ progress: 2, joined: true });
    await service.published('challenge.completed.v1');

    const before = await othersView(bob, carol, styles);
    expect(before.bob.participants).toEqual(expect.arrayContaining([[alice.id, 2]]));
    expect(before.bobsInvitations.received).toEqual([[alice.id, bob.id, 'pending']]);
    expect(Object.keys(await rowsNaming(alice.id))).toEqual(
      expect.arrayContaining(['user_challenges', 'challenge_invitations', 'session_facts', 'review_facts', 'photo_facts', 'users', 'follows', 'outbox']),
    );

    await deleteAccount(alice.id, 1);

    expect(await rowsNaming(alice.id)).toEqual({});
    expect(await rowsNaming('Alice Erased')).toEqual({});
    // The others see everything as before, less Alice: her place among the participants, her invitations.
    const after = await othersView(bob, carol, styles);
    expect(after).toEqual({
      ...before,
      bob: { ...before.bob, participants: before.bob.participants.filter(([id]) => id !== alice.id), friendCount: before.bob.friendCount - 1 },
      carol: { ...before.carol, participants: before.carol.participants.filter(([id]) => id !== alice.id), friendCount: before.carol.friendCount - 1 },
      bobsInvitations: { sent: [[bob.id, carol.id, 'pending']], received: [] },
      carolsInvitations: { sent: [], received: [[bob.id, carol.id, 'pending']] },
    });
    expect(after.bob.progress).toBe(before.bob.progress);
    // Her tokens are refused from now on.
    expect((await alice.get('/api/me/challenges')).statusCode).toBe(401);

    // A second deletion (a new envelope) changes nothing.
    await deleteAccount(alice.id, 2);
    expect(await othersView(bob, carol, styles)).toEqual(after);
    expect(await rowsNaming(alice.id)).toEqual({});

    // Late events about her (published before the deletion, delivered after): a session, its delete
    // (which used to leave a tombstone), a review, a photo, a friendship. Nothing comes back.
    await service.publish('session.created.v1', sessionFacts(alice.id, hoursAfterNoon(1), { beerTypes: ['Lambic'] }));
    await service.publish('session.deleted.v1', { sessionId: deleted.data.sessionId, userId: alice.id });
    await service.publish('place.review.created.v1', { reviewId: randomUUID(), barId: randomUUID(), userId: alice.id, createdAt: hoursAfterNoon(1).toISOString() });
    await service.publish('media.photo.stored.v1', { photoId: randomUUID(), userId: alice.id, albumId: randomUUID(), key: `albums/${randomUUID()}.jpg` });
    await service.publish('social.friendship.accepted.v1', { friendshipId: randomUUID(), requesterId: alice.id, recipientId: bob.id });
    expect(await rowsNaming(alice.id)).toEqual({});
    expect(await othersView(bob, carol, styles)).toEqual(after);

    // An event whose inbox guard looked just before the erasure committed: its handler waits on her
    // progress lock, which the erasure held, and then sees the tombstone and writes nothing.
    await service.prisma.$transaction(async (tx) => {
      await service.progress.session(tx, sessionFacts(alice.id, hoursAfterNoon(2), { beerTypes: ['Kölsch'] }));
      await service.progress.record(tx, 'review_facts', randomUUID(), alice.id, hoursAfterNoon(2));
      await service.progress.forget(tx, 'photo_facts', randomUUID(), alice.id, hoursAfterNoon(2));
    });
    expect(await rowsNaming(alice.id)).toEqual({});
  });
});
