import { randomUUID } from 'node:crypto';
import { CHALLENGE_INVITATIONS_MAX, CHALLENGE_MESSAGES, type Challenge, type ChallengeDetail, type ChallengeInvitation, type ChallengeInvitations } from '@hoptrack/proto';
import { expectError, ok } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { befriend, sessionFacts, startTestChallenges, type Client, type TestChallenges } from './support';

/** Invitations between friends, answering, expiry, and what each person may see of a challenge (issue 23). */
let service: TestChallenges;
const NOON = new Date('2026-06-15T12:00:00Z');

beforeAll(async () => {
  service = await startTestChallenges({ now: NOON });
});
afterAll(() => service?.close());

async function todays(person: Client, kind = 'new_styles'): Promise<Challenge> {
  const found = ok<Challenge[]>(await person.get('/api/challenges?timeZone=UTC')).find((c) => c.challengeType === kind);
  if (!found) throw new Error(`no ${kind} today`);
  return found;
}

describe('invitations', () => {
  it('a friend is invited, sees it, accepts and joins; the inviter sees it accepted; each sees the other on the page', async () => {
    const [alice, bob] = [await service.user({ displayName: 'Alice' }), await service.user({ displayName: 'Bob' })];
    await befriend(service, alice, bob);
    const challenge = await todays(alice);
    const invitation = ok<ChallengeInvitation>(await alice.post(`/api/challenges/${challenge.id}/invitations?timeZone=UTC`, { friendId: bob.id }), 201);
    expect(invitation).toMatchObject({ status: 'pending', from: { id: alice.id, displayName: 'Alice' }, to: { id: bob.id }, respondedAt: null });
    expect(invitation.expiresAt).toBe('2026-06-16T00:00:00.000Z');
    // Inviting joined Alice.
    expect(ok<Challenge>(await alice.get(`/api/challenges/${challenge.id}`)).joined).toBe(true);

    const received = ok<ChallengeInvitations>(await bob.get('/api/challenge-invitations')).received;
    expect(received.map((i) => i.id)).toEqual([invitation.id]);
    const accepted = ok<ChallengeInvitation>(await bob.patch(`/api/challenge-invitations/${invitation.id}`, { action: 'accept', timeZone: 'Europe/Berlin' }));
    expect(accepted).toMatchObject({ status: 'accepted', respondedAt: NOON.toISOString() });
    expect(ok<ChallengeInvitations>(await alice.get('/api/challenge-invitations')).sent.map((i) => i.status)).toEqual(['accepted']);

    await service.publish('session.created.v1', sessionFacts(alice.id, new Date('2026-06-15T13:00:00Z'), { beerTypes: ['Gose', 'Mild'] }));
    const page = ok<ChallengeDetail>(await bob.get(`/api/challenges/${challenge.id}`));
    expect(page).toMatchObject({ joined: true, friendCount: 1, endsAt: '2026-06-15T22:00:00.000Z' });
    expect(page.participants).toEqual([{ person: expect.objectContaining({ id: alice.id, displayName: 'Alice' }), progress: 2, isCompleted: false, completedAt: null }]);

    expectError(await bob.patch(`/api/challenge-invitations/${invitation.id}`, { action: 'decline' }), 409, { message: CHALLENGE_MESSAGES.answered });
    const events = await service.published('challenge.invited.v1');
    expect(events.filter((e) => e.data.invitationId === invitation.id).map((e) => e.data)).toEqual([
      { invitationId: invitation.id, challengeId: challenge.id, fromUserId: alice.id, toUserId: bob.id, title: 'Try 3 new styles' },
    ]);
    expect((await service.published('challenge.invitation.answered.v1')).filter((e) => e.data.invitationId === invitation.id).map((e) => e.data.status)).toEqual(['accepted']);
  });

  it('only friends, never oneself, once each, not someone already in, at most the cap', async () => {
    const [carl, dina, stranger] = [await service.user(), await service.user(), await service.user()];
    await befriend(service, carl, dina);
    const challenge = await todays(carl, 'slow_pace');
    const invite = (friendId: string) => carl.post(`/api/challenges/${challenge.id}/invitations`, { friendId });

    expectError(await invite(stranger.id), 403, { message: CHALLENGE_MESSAGES.friendsOnly });
    expectError(await invite(carl.id), 400, { field: 'friendId', message: CHALLENGE_MESSAGES.self });
    expectError(await invite('not-an-id'), 400, { field: 'friendId' });
    expectError(await carl.post(`/api/challenges/${randomUUID()}/invitations`, { friendId: dina.id }), 404);
    ok(await invite(dina.id), 201);
    expectError(await invite(dina.id), 409, { field: 'friendId', message: CHALLENGE_MESSAGES.duplicate });

    const friends: Client[] = [];
    for (let i = 0; i < CHALLENGE_INVITATIONS_MAX; i++) {
      const friend = await service.user();
      await befriend(service, carl, friend);
      friends.push(friend);
    }
    ok(await carl.post(`/api/challenges/${challenge.id}/join`, {}));
    // Someone already in cannot be invited.
    ok(await friends[0]!.post(`/api/challenges/${challenge.id}/join`, {}));
    expectError(await invite(friends[0]!.id), 409, { message: CHALLENGE_MESSAGES.alreadyIn });
    for (const friend of friends.slice(1)) ok(await invite(friend.id), 201);
    expect(ok<ChallengeInvitations>(await carl.get('/api/challenge-invitations')).sent).toHaveLength(CHALLENGE_INVITATIONS_MAX);
    const oneMore = await service.user();
    await befriend(service, carl, oneMore);
    expectError(await invite(oneMore.id), 409, { message: CHALLENGE_MESSAGES.cap });
  });

  it('only the recipient answers; strangers get 404; a block hides it; it expires with the day', async () => {
    const [eve, finn, gil] = [await service.user(), await service.user(), await service.user()];
    await befriend(service, eve, finn);
    await befriend(service, eve, gil);
    const challenge = await todays(eve, 'music_session');
    const toFinn = ok<ChallengeInvitation>(await eve.post(`/api/challenges/${challenge.id}/invitations`, { friendId: finn.id }), 201);
    const toGil = ok<ChallengeInvitation>(await eve.post(`/api/challenges/${challenge.id}/invitations`, { friendId: gil.id }), 201);

    expectError(await eve.patch(`/api/challenge-invitations/${toFinn.id}`, { action: 'accept' }), 403, { message: CHALLENGE_MESSAGES.recipientOnly });
    expectError(await gil.patch(`/api/challenge-invitations/${toFinn.id}`, { action: 'accept' }), 404);
    expectError(await finn.patch(`/api/challenge-invitations/${randomUUID()}`, { action: 'accept' }), 404);
    expectError(await finn.patch(`/api/challenge-invitations/${toFinn.id}`, { action: 'maybe' }), 400, { field: 'action' });

    await service.publish('social.user.blocked.v1', { blockerId: gil.id, blockedId: eve.id });
    expect(ok<ChallengeInvitations>(await gil.get('/api/challenge-invitations')).received).toEqual([]);
    expectError(await gil.patch(`/api/challenge-invitations/${toGil.id}`, { action: 'accept' }), 404);

    service.clock.advance(12 * 3_600_000);
    expect(ok<ChallengeInvitations>(await finn.get('/api/challenge-invitations')).received.map((i) => i.status)).toEqual(['expired']);
    expectError(await finn.patch(`/api/challenge-invitations/${toFinn.id}`, { action: 'accept' }), 409, { message: CHALLENGE_MESSAGES.expired });
    expectError(await finn.post(`/api/challenges/${challenge.id}/join`, { timeZone: 'UTC' }), 409, { message: CHALLENGE_MESSAGES.ended });
    service.clock.advance(-12 * 3_600_000);
  });

  it("hides a muted friend's invitations from the one who muted, as their notifications are (issue 39)", async () => {
    const [hal, ida] = [await service.user(), await service.user()];
    await befriend(service, hal, ida);
    const challenge = await todays(hal, 'slow_pace');
    const invitation = ok<ChallengeInvitation>(await hal.post(`/api/challenges/${challenge.id}/invitations`, { friendId: ida.id }), 201);
    expect(ok<ChallengeInvitations>(await ida.get('/api/challenge-invitations')).received.map((i) => i.id)).toEqual([invitation.id]);
    await service.publish('social.friend.muted.v1', { userId: ida.id, friendId: hal.id });
    expect(ok<ChallengeInvitations>(await ida.get('/api/challenge-invitations')).received).toEqual([]);
    // The inviter still sees what was sent; unmuted, it is back.
    expect(ok<ChallengeInvitations>(await hal.get('/api/challenge-invitations')).sent.map((i) => i.id)).toEqual([invitation.id]);
    await service.publish('social.friend.unmuted.v1', { userId: ida.id, friendId: hal.id });
    expect(ok<ChallengeInvitations>(await ida.get('/api/challenge-invitations')).received.map((i) => i.id)).toEqual([invitation.id]);
  });
});

describe('privacy of challenges', () => {
  it('a profile row of completed challenges: friends see a private one, others 403, blocked 404; the page lists only friends', async () => {
    const [priv, friend, other] = [await service.user({ isProfilePrivate: true }), await service.user(), await service.user()];
    await befriend(service, priv, friend);
    const challenge = await todays(priv, 'slow_pace');
    ok(await priv.post(`/api/challenges/${challenge.id}/join`, {}));
    ok(await other.post(`/api/challenges/${challenge.id}/join`, {}));
    await service.publish('session.created.v1', sessionFacts(priv.id, new Date('2026-06-15T12:30:00Z'), { beerCount: 1, duration: 50 }));

    expect(ok<Array<{ id: string }>>(await friend.get(`/api/users/${priv.id}/challenges`)).map((c) => c.id)).toEqual([challenge.id]);
    expectError(await other.get(`/api/users/${priv.id}/challenges`), 403);
    expectError(await other.get(`/api/users/${randomUUID()}/challenges`), 404);
    // A stranger in the same challenge is not on the page; a friend is.
    const page = ok<ChallengeDetail>(await friend.get(`/api/challenges/${challenge.id}`));
    expect(page.participants.map((p) => p.person.id)).toEqual([priv.id]);
    expect(page.participants[0]).toMatchObject({ progress: 1, isCompleted: true });
    await service.publish('social.user.blocked.v1', { blockerId: priv.id, blockedId: friend.id });
    expectError(await friend.get(`/api/users/${priv.id}/challenges`), 404);
    expect(ok<ChallengeDetail>(await friend.get(`/api/challenges/${challenge.id}`)).participants).toEqual([]);
  });

  it('validates what comes in', async () => {
    const person = await service.user();
    expectError(await person.get('/api/challenges?timeZone=Mars/Olympus'), 400, { field: 'timeZone' });
    expectError(await person.get('/api/challenges/nope'), 400, { field: 'id' });
    expectError(await person.get(`/api/challenges/${randomUUID()}`), 404);
    expectError(await person.get('/api/me/challenges?status=lost'), 400, { field: 'status' });
    expectError(await person.post(`/api/challenges/${randomUUID()}/join`, {}), 404);
    const today = await todays(person);
    expectError(await person.post(`/api/challenges/${today.id}/join`, { timeZone: 'Nowhere/Else' }), 400, { field: 'timeZone' });
    expectError(await person.post(`/api/challenges/${today.id}/invitations?timeZone=Nowhere/Else`, { friendId: randomUUID() }), 400, { field: 'timeZone' });
    expectError(await person.post(`/api/challenges/${today.id}/invitations`, {}), 400, { field: 'friendId' });
    expectError(await person.get('/api/users/nope/challenges'), 400, { field: 'id' });
    expectError(await person.get(`/api/users/${person.id}/challenges?limit=0`), 400, { field: 'limit' });
    expectError(await person.patch('/api/challenge-invitations/nope', { action: 'accept' }), 400, { field: 'id' });
    expectError(await person.patch(`/api/challenge-invitations/${randomUUID()}`, { action: 'accept', timeZone: 42 }), 400, { field: 'timeZone' });
  });
});
