import { randomUUID } from 'node:crypto';
import { INVALID_UNSUBSCRIBE_MESSAGE, UNSUBSCRIBED_MESSAGE, type NotificationSettings } from '@hoptrack/proto';
import { eventually, expectError, ok } from '@hoptrack/testing';
import type { CaughtMail } from '@hoptrack/testing/mail';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNotifications, type Client, type TestNotifications } from './support';

let t: TestNotifications;
beforeAll(async () => {
  // A window longer than any test: a test runs a person's mail job by promoting it, never by waiting.
  t = await startTestNotifications({ MAIL_BATCH_MS: '600000' });
});
afterAll(() => t.close());

const emailOf = (client: Client) => `${client.id}@example.test`;
const mailsTo = (client: Client): CaughtMail[] => t.mail.messages.filter((m) => m.to.includes(emailOf(client)));
const jobsOf = async (client: Client) => (await t.mailQueue.getJobs(['delayed', 'waiting', 'active'])).filter((job) => job.data.userId === client.id);

/** Runs the person's pending mail job now (as the end of its window would) and waits until it has finished. */
async function flush(client: Client): Promise<void> {
  const jobs = await jobsOf(client);
  for (const job of jobs) if ((await job.getState()) === 'delayed') await job.promote();
  await eventually(async () => (await jobsOf(client)).length === 0, 'mail job finished');
}

async function likedBy(owner: Client, count: number, title: string): Promise<{ sessionId: string; likers: Client[] }> {
  const sessionId = randomUUID();
  const at = new Date().toISOString();
  await t.publish('session.created.v1', { sessionId, userId: owner.id, beerCount: 1, duration: 30, title, createdAt: at, updatedAt: at });
  const likers: Client[] = [];
  for (let i = 0; i < count; i += 1) {
    const liker = await t.user({ displayName: `Liker ${i}` });
    await t.publish('session.liked.v1', { sessionId, ownerId: owner.id, userId: liker.id });
    likers.push(liker);
  }
  return { sessionId, likers };
}

const likesByEmail = (client: Client) => client.put('/api/notifications/settings', { kinds: { 'session.liked': { inApp: true, email: true } } });

describe('notification e-mail', () => {
  it("quotes people's names as data, one line, with their links neutralised (issue 39)", async () => {
    // A name from before names were one line (the read model keeps what auth announced then).
    const [alice, mallory] = await Promise.all([t.user({ displayName: 'Alice' }), t.user({ displayName: 'Support: http://evil.example/x\nReset here www.evil.example' })]);
    await t.publish('social.friendship.requested.v1', { friendshipId: randomUUID(), requesterId: mallory.id, recipientId: alice.id });
    await flush(alice);
    const [mail] = mailsTo(alice);
    expect(mail?.subject).toBe('“Support: http[:]//evil[.]example/x Reset here www[.]evil[.]example” sent you a friend request');
    expect(mail?.text).toContain('• “Support: http[:]//evil[.]example/x Reset here www[.]evil[.]example” sent you a friend request');
    expect(mail?.text).not.toMatch(/evil\.example/);
  });

  it('mails a friend request (on by default) with a link to the notifications and one that unsubscribes', async () => {
    const [alice, bob] = await Promise.all([t.user({ displayName: 'Alice' }), t.user({ displayName: 'Bob' })]);
    await t.publish('social.friendship.requested.v1', { friendshipId: randomUUID(), requesterId: bob.id, recipientId: alice.id });
    expect(await jobsOf(alice)).toHaveLength(1);
    await flush(alice);
    const [mail, ...more] = mailsTo(alice);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('“Bob” sent you a friend request');
    expect(mail?.text).toContain('• “Bob” sent you a friend request');
    expect(mail?.text).toContain('http://web.test/notifications');
    const link = /http:\/\/web\.test\/unsubscribe\?token=(\S+)/.exec(mail?.text ?? '');
    expect(link).not.toBeNull();
    expect(mail?.headers['list-unsubscribe']).toBe(`<${link?.[0]}>`);
    // Bob, who asked, gets nothing.
    expect(mailsTo(bob)).toEqual([]);

    // The link works without signing in: every kind's e-mail goes off, in-app stays.
    const token = decodeURIComponent(link?.[1] ?? '');
    const res = await t.app.inject({ method: 'POST', url: '/api/notifications/unsubscribe', payload: { token } });
    expect(ok<{ message: string }>(res)).toEqual({ message: UNSUBSCRIBED_MESSAGE });
    const settings = ok<NotificationSettings>(await alice.get('/api/notifications/settings'));
    expect(Object.values(settings.kinds).every((k) => !k.email && k.inApp)).toBe(true);
    await t.publish('social.friendship.requested.v1', { friendshipId: randomUUID(), requesterId: (await t.user()).id, recipientId: alice.id });
    expect(await jobsOf(alice)).toEqual([]);
  });

  it('answers 400 for an unsubscribe token it did not sign, changing nothing', async () => {
    const alice = await t.user();
    const forged = `${Buffer.from(alice.id).toString('base64url')}.${'A'.repeat(43)}`;
    expectError(await t.app.inject({ method: 'POST', url: '/api/notifications/unsubscribe', payload: { token: forged } }), 400, {
      field: 'token',
      message: INVALID_UNSUBSCRIBE_MESSAGE,
    });
    expectError(await t.app.inject({ method: 'POST', url: '/api/notifications/unsubscribe', payload: {} }), 400, { field: 'token' });
    expect(ok<NotificationSettings>(await alice.get('/api/notifications/settings')).kinds['friend.requested'].email).toBe(true);
  });

  it('ten likes within the window make one mail', async () => {
    const alice = await t.user();
    ok(await likesByEmail(alice));
    await likedBy(alice, 10, 'Ten likes');
    // One job for the window, however many likes.
    expect(await jobsOf(alice)).toHaveLength(1);
    await flush(alice);
    const mails = mailsTo(alice);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('“Liker 9” and 9 others liked your session “Ten likes”');
  });

  it('mails a challenge invitation (on by default), not a completed challenge (off by default)', async () => {
    const [alice, bob] = await Promise.all([t.user({ displayName: 'Alice' }), t.user()]);
    const challengeId = randomUUID();
    const title = 'Somewhere new';
    await t.publish('challenge.completed.v1', { challengeId, userId: bob.id, title, date: '2026-11-25', completedAt: new Date().toISOString() });
    expect(await jobsOf(bob)).toEqual([]);
    await t.publish('challenge.invited.v1', { invitationId: randomUUID(), challengeId, fromUserId: alice.id, toUserId: bob.id, title });
    await flush(bob);
    const [mail, ...more] = mailsTo(bob);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('“Alice” invited you to “Somewhere new”');
  });

  it('likes are not mailed unless their e-mail is on (off by default)', async () => {
    const alice = await t.user();
    await likedBy(alice, 2, 'Quiet');
    expect(await jobsOf(alice)).toEqual([]);
    expect(await t.prisma.pendingMail.count({ where: { userId: alice.id } })).toBe(0);
  });

  it('an unlike before the mail goes takes the like out of it; nothing left, nothing sent', async () => {
    const alice = await t.user();
    ok(await likesByEmail(alice));
    const { sessionId, likers } = await likedBy(alice, 1, 'Changed my mind');
    expect(await t.prisma.pendingMail.count({ where: { userId: alice.id } })).toBe(1);
    await t.publish('session.unliked.v1', { sessionId, ownerId: alice.id, userId: likers[0]?.id ?? '' });
    expect(await t.prisma.pendingMail.count({ where: { userId: alice.id } })).toBe(0);
    await flush(alice);
    expect(mailsTo(alice)).toEqual([]);
  });

  it('a person blocked after their like is left out of the mail', async () => {
    const alice = await t.user();
    ok(await likesByEmail(alice));
    const { likers } = await likedBy(alice, 2, 'Mixed company');
    const [first, second] = likers;
    await t.publish('social.user.blocked.v1', { blockerId: alice.id, blockedId: second?.id ?? '' });
    await flush(alice);
    const [mail] = mailsTo(alice);
    expect(mail?.subject).toBe('“Liker 0” liked your session “Mixed company”');
    expect(mail?.text).not.toContain('Liker 1');
    expect(first).toBeDefined();
    expect(await t.prisma.pendingMail.count({ where: { userId: alice.id } })).toBe(0);
  });
});
