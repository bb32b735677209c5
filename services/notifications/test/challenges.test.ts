import { randomUUID } from 'node:crypto';
import type { Notification, NotificationSettings } from '@hoptrack/proto';
import { ok } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNotifications, type Client, type TestNotifications } from './support';

let t: TestNotifications;
beforeAll(async () => {
  t = await startTestNotifications();
});
afterAll(() => t.close());

const inbox = async (client: Client) => ok<Notification[]>(await client.get('/api/notifications'));
const unread = async (client: Client) => ok<{ count: number }>(await client.get('/api/notifications/unread-count')).count;

const TITLE = 'Try 3 new styles';

/** `from` invites `to` to the challenge, as the challenges service announces it; answers the invitation's id. */
async function invite(challengeId: string, from: Client, to: Client): Promise<string> {
  const invitationId = randomUUID();
  await t.publish('challenge.invited.v1', { invitationId, challengeId, fromUserId: from.id, toUserId: to.id, title: TITLE });
  return invitationId;
}
const answer = (invitationId: string, challengeId: string, from: Client, to: Client, status: 'accepted' | 'declined') =>
  t.publish('challenge.invitation.answered.v1', { invitationId, challengeId, fromUserId: from.id, toUserId: to.id, status });
const complete = (challengeId: string, who: Client) =>
  t.publish('challenge.completed.v1', { challengeId, userId: who.id, title: TITLE, date: '2026-11-25', completedAt: new Date().toISOString() });
/** The completion is taken back, as the challenges service announces it when its evidence is deleted. */
const withdraw = (challengeId: string, who: Client) => t.publish('challenge.completion.withdrawn.v1', { challengeId, userId: who.id });

describe('challenge completions', () => {
  it('tells the person they completed a challenge, pointing at it', async () => {
    const [alice, bob] = await Promise.all([t.user({ displayName: 'Alice' }), t.user()]);
    const challengeId = randomUUID();
    await complete(challengeId, alice);
    expect(await inbox(alice)).toMatchObject([
      {
        kind: 'challenge.completed',
        actorCount: 1,
        actors: [{ id: alice.id }],
        text: `You completed “${TITLE}”`,
        target: { type: 'challenge', id: challengeId, title: TITLE },
        read: false,
      },
    ]);
    expect(await unread(alice)).toBe(1);
    expect(await inbox(bob)).toEqual([]);
  });

  it('takes the entry back when the completion is withdrawn (issue 39), and tells again when it is earned again', async () => {
    const [alice, bob] = await Promise.all([t.user(), t.user()]);
    const challengeId = randomUUID();
    await complete(challengeId, bob);
    await complete(challengeId, alice);
    expect(await unread(alice)).toBe(1);

    const withdrawn = await withdraw(challengeId, alice);
    expect(await inbox(alice)).toEqual([]);
    expect(await unread(alice)).toBe(0);
    // Only hers: Bob's completion of the same challenge stays.
    expect(await inbox(bob)).toMatchObject([{ kind: 'challenge.completed', target: { id: challengeId } }]);
    // Her bell hears of it, as of every other change to her inbox.
    const announced = (await t.changes()).filter((e) => e.data.userId === alice.id).map((e) => e.data.unreadCount);
    expect(announced).toEqual([1, 0]);

    // New evidence completes it again, and that is told; the withdrawal redelivered after it takes nothing back.
    await complete(challengeId, alice);
    await t.republish(withdrawn);
    expect(await inbox(alice)).toMatchObject([{ kind: 'challenge.completed', actorCount: 1, target: { id: challengeId } }]);
    expect(await unread(alice)).toBe(1);
  });

  it('is in the settings with e-mail off by default, where invitations have it on', async () => {
    const alice = await t.user();
    const settings = ok<NotificationSettings>(await alice.get('/api/notifications/settings'));
    expect(settings.kinds['challenge.completed']).toEqual({ inApp: true, email: false, label: 'Completed challenges' });
    expect(settings.kinds['challenge.invited']).toEqual({ inApp: true, email: true, label: 'Challenge invitations' });
  });
});

describe('challenge invitations', () => {
  it('tells the invitee, naming the inviter; answering takes the entry back', async () => {
    const [alice, bob] = await Promise.all([t.user({ displayName: 'Alice' }), t.user({ displayName: 'Bob' })]);
    const challengeId = randomUUID();
    const invitationId = await invite(challengeId, alice, bob);
    expect(await inbox(bob)).toMatchObject([
      {
        kind: 'challenge.invited',
        actors: [{ id: alice.id, displayName: 'Alice' }],
        text: `Alice invited you to “${TITLE}”`,
        target: { type: 'challenge', id: challengeId, title: TITLE },
      },
    ]);
    expect(await inbox(alice)).toEqual([]);
    expect(await unread(bob)).toBe(1);

    await answer(invitationId, challengeId, alice, bob, 'accepted');
    expect(await inbox(bob)).toEqual([]);
    expect(await unread(bob)).toBe(0);
    // The inviter hears nothing of the answer.
    expect(await inbox(alice)).toEqual([]);
  });

  it('groups two invitations to one challenge; declining one leaves the other', async () => {
    const [alice, bob, carl] = await Promise.all([t.user({ displayName: 'Alice' }), t.user({ displayName: 'Bob' }), t.user({ displayName: 'Carl' })]);
    const challengeId = randomUUID();
    const fromAlice = await invite(challengeId, alice, bob);
    await invite(challengeId, carl, bob);
    expect(await inbox(bob)).toMatchObject([{ kind: 'challenge.invited', actorCount: 2, text: `Carl and Alice invited you to “${TITLE}”` }]);
    await answer(fromAlice, challengeId, alice, bob, 'declined');
    expect(await inbox(bob)).toMatchObject([{ actorCount: 1, text: `Carl invited you to “${TITLE}”` }]);
  });
});

describe('idempotence', () => {
  it('a replayed completion or invitation adds nothing twice', async () => {
    const [alice, bob] = await Promise.all([t.user(), t.user()]);
    const challengeId = randomUUID();
    await t.republish(await complete(challengeId, alice));
    const invitationId = randomUUID();
    const invited = await t.publish('challenge.invited.v1', { invitationId, challengeId, fromUserId: alice.id, toUserId: bob.id, title: TITLE });
    await t.republish(invited);

    expect(await inbox(alice)).toMatchObject([{ kind: 'challenge.completed', actorCount: 1 }]);
    expect(await inbox(bob)).toMatchObject([{ kind: 'challenge.invited', actorCount: 1 }]);
    expect(await t.prisma.notification.count({ where: { targetId: challengeId } })).toBe(2);
    expect(await t.prisma.notificationActor.count({ where: { sourceId: invitationId } })).toBe(1);
  });
});

describe('privacy', () => {
  it('nothing from an inviter the invitee blocked, and a later block hides an invitation that came before', async () => {
    const [alice, bob, carl] = await Promise.all([t.user({ displayName: 'Alice' }), t.user(), t.user({ displayName: 'Carl' })]);
    const challengeId = randomUUID();
    await t.publish('social.user.blocked.v1', { blockerId: bob.id, blockedId: alice.id });
    await invite(challengeId, alice, bob);
    expect(await inbox(bob)).toEqual([]);
    expect(await t.prisma.notification.count({ where: { userId: bob.id } })).toBe(0);

    // Carl invited first; then Bob blocks Carl: the entry leaves Bob's list and count.
    await invite(challengeId, carl, bob);
    expect(await unread(bob)).toBe(1);
    await t.publish('social.user.blocked.v1', { blockerId: bob.id, blockedId: carl.id });
    expect(await inbox(bob)).toEqual([]);
    expect(await unread(bob)).toBe(0);
  });
});
