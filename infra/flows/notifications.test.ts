import { VERIFICATION_MAIL_SUBJECT, type Notification } from '@hoptrack/proto';
import { eventually } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, expectApi, logSessionViaApi, registerUser, type RegisteredUser } from '@hoptrack/testing/api';
import { openLive } from '@hoptrack/testing/live';
import { caughtMail } from '@hoptrack/testing/mail';
import { startStack, type Stack } from '@hoptrack/testing/stack';

/**
 * Issue 22 through the gateway, every process running: what people do in
 * the other services becomes the recipient's notifications, the bell's count
 * arrives on the live stream, and blocks keep a person out of it.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ serveWeb: false, env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
});
afterAll(async () => {
  await stack?.stop();
});

const inbox = async (user: RegisteredUser) => (await expectApi(stack.baseUrl, user.token, 'GET', '/api/notifications')) as Notification[];
const unread = async (user: RegisteredUser) => ((await expectApi(stack.baseUrl, user.token, 'GET', '/api/notifications/unread-count')) as { count: number }).count;
const kinds = async (user: RegisteredUser) => (await inbox(user)).map((n) => n.kind);

/** The live stream of `user`: the `unreadCount` of each `notifications` event, as they arrive. */
async function bell(user: RegisteredUser): Promise<{ counts: number[]; close(): void }> {
  const counts: number[] = [];
  const live = await openLive(stack.baseUrl, user.token, ({ event, data }) => {
    if (event === 'notifications') counts.push((data as { unreadCount: number }).unreadCount);
  });
  expect(live.status).toBe(200);
  return { counts, close: () => live.close() };
}

describe('notifications through the gateway', () => {
  it('a friend request, likes and comments reach the bell and the list; unliking retracts; a blocked person notifies nothing', { timeout: 120_000 }, async () => {
    const [alice, bob, carl] = await Promise.all([registerUser(stack.baseUrl, 'ntfalice'), registerUser(stack.baseUrl, 'ntfbob'), registerUser(stack.baseUrl, 'ntfcarl')]);
    await eventually(async () => (await callApi(stack.baseUrl, bob.token, 'GET', `/api/users/${alice.id}`)).status === 200, 'social graph knows alice');
    let live = await bell(alice);
    try {
      // Bob asks; Alice's bell and list show it.
      const request = (await expectApi(stack.baseUrl, bob.token, 'POST', '/api/friendships', { friendId: alice.id }, 201)) as { id: string };
      await expect.poll(() => kinds(alice)).toEqual(['friend.requested']);
      await expect.poll(() => live.counts.at(-1)).toBe(1);
      // Friend requests are mailed by default: one mail, through SMTP, to the stack's catcher.
      const mailUrl = stack.mailUrl ?? '';
      // Besides auth's verification mail from her registration.
      const notificationSubjects = async () => (await caughtMail(mailUrl, alice.email)).map((m) => m.subject).filter((s) => s !== VERIFICATION_MAIL_SUBJECT);
      await expect.poll(notificationSubjects).toEqual([`“${bob.displayName}” sent you a friend request`]);
      // Alice accepts: her request entry goes, Bob hears of the yes.
      await expectApi(stack.baseUrl, alice.token, 'PATCH', `/api/friendships/${request.id}`, { action: 'accept' }, 200);
      await expect.poll(() => kinds(bob)).toEqual(['friend.accepted']);
      await expect.poll(() => unread(alice)).toBe(0);

      const session = await logSessionViaApi(stack.baseUrl, alice, { title: 'Friday pints', beerCount: '2', duration: '90' });
      await eventually(async () => (await callApi(stack.baseUrl, bob.token, 'POST', `/api/sessions/${session.id}/like`)).status === 200, 'bob can like');
      await expectApi(stack.baseUrl, bob.token, 'POST', `/api/sessions/${session.id}/comments`, { content: 'Cheers!' }, 201);
      // The like and the comment are one entry: one session's activity.
      await expect.poll(async () => (await inbox(alice)).map((n) => n.text)).toEqual([`${bob.displayName} liked and commented on your session “Friday pints”`]);
      await expect.poll(() => live.counts.at(-1)).toBe(1);
      const [activity] = await inbox(alice);
      expect(activity?.target).toEqual({ type: 'session', id: session.id, title: 'Friday pints', ownerId: alice.id });

      // Bob unlikes: the like leaves the entry, the comment stays.
      await expectApi(stack.baseUrl, bob.token, 'DELETE', `/api/sessions/${session.id}/like`);
      await expect.poll(async () => (await inbox(alice)).map((n) => n.text)).toEqual([`${bob.displayName} commented on your session “Friday pints”`]);
      expect(await kinds(alice)).toEqual(['session.commented']);

      // Alice blocks Carl; Carl cannot reach her, and nothing of his shows.
      await expectApi(stack.baseUrl, alice.token, 'POST', `/api/friends/${carl.id}/block`, {});
      expect((await callApi(stack.baseUrl, carl.token, 'POST', `/api/sessions/${session.id}/like`)).status).toBe(404);
      // A block ends both people's live streams (messaging's rule); the client reconnects.
      live.close();
      live = await bell(alice);
      // Mark all read: the count is 0 everywhere.
      await expectApi(stack.baseUrl, alice.token, 'POST', '/api/notifications/read', { all: true });
      expect(await unread(alice)).toBe(0);
      await expect.poll(() => live.counts.at(-1)).toBe(0);
      expect((await inbox(alice)).every((n) => n.read)).toBe(true);
    } finally {
      live.close();
    }
  });
});
