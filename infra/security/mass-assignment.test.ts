import { randomUUID } from 'node:crypto';
import type { Album, AuthResponse, Conversation, DmMessage, FeedSession, Friendship, Review, SessionComment } from '@hoptrack/proto';
import { eventually } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, expectApi, logSessionViaApi, registerUser, uniqueUser, waitForMessagingUser, waitForSocialUser, type RegisteredUser } from '@hoptrack/testing/api';
import { startStack, type Stack } from '@hoptrack/testing/stack';

/**
 * Issue 9, item 14: a write body carrying fields the client must not set
 * (ids, owners, flags, counters, timestamps) changes nothing of them. Every
 * body is a zod object in proto/, which drops unknown keys; this proves it
 * end to end, through the gateway, for each service's writes, by reading
 * back what was stored.
 */
let stack: Stack;
let alice: RegisteredUser;
let bob: RegisteredUser;
const LONG_AGO = '2000-01-01T00:00:00.000Z';
const forgedId = randomUUID();

/** Fields an attacker would like to set, on every body. */
const forged = (victim: RegisteredUser) => ({
  id: forgedId,
  userId: victim.id,
  ownerId: victim.id,
  createdAt: LONG_AGO,
  updatedAt: LONG_AGO,
});

beforeAll(async () => {
  stack = await startStack({ serveWeb: false });
  alice = await registerUser(stack.baseUrl, 'massalice');
  bob = await registerUser(stack.baseUrl, 'massbob');
  // (expect.poll cannot run in a hook: poll by hand until the services heard of both.)
  await eventually(async () => (await callApi(stack.baseUrl, alice.token, 'GET', `/api/users/${bob.id}`)).status === 200, 'social graph knows bob', 15_000);
  await eventually(async () => (await callApi(stack.baseUrl, alice.token, 'GET', `/api/messages/${bob.id}`)).status === 200, 'messaging knows bob', 15_000);
});
afterAll(async () => {
  await stack?.stop();
});

const recent = (iso: string) => expect(Date.now() - new Date(iso).getTime()).toBeLessThan(5 * 60_000);

describe('extra fields in write bodies are never stored', () => {
  it('register: no chosen id, no verified e-mail, no token version, no early date, default privacy', async () => {
    const user = uniqueUser('massreg');
    const res = await fetch(`${stack.baseUrl}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...user, ...forged(bob), isEmailVerified: true, tokenVersion: 99, isProfilePrivate: true, allowDirectMessages: false, roles: ['admin'] }),
    });
    expect(res.status).toBe(201);
    const { user: created } = (await res.json()) as AuthResponse;
    expect(created.id).not.toBe(forgedId);
    expect(created.id).not.toBe(bob.id);
    expect(created).toMatchObject({ isEmailVerified: false, isProfilePrivate: false, allowDirectMessages: true, roles: [] });
    recent(created.createdAt);
  });

  it('profile update: only the display name and bio change', async () => {
    const me = await expectApi(stack.baseUrl, alice.token, 'PATCH', '/api/me', {
      displayName: 'Alice Renamed',
      ...forged(bob),
      email: 'attacker@example.com',
      username: 'attacker',
      password: 'owned-password',
      isEmailVerified: true,
      roles: ['admin', 'moderator'],
    });
    expect(me).toMatchObject({ id: alice.id, displayName: 'Alice Renamed', email: alice.email, username: alice.username, isEmailVerified: false, roles: [] });
    // The password did not change: the old one still signs in.
    expect((await callApi(stack.baseUrl, '', 'POST', '/api/auth/login', { email: alice.email, password: alice.password })).status).toBe(200);
  });

  it('privacy: a userId in the body changes the caller, never someone else', async () => {
    await expectApi(stack.baseUrl, bob.token, 'PUT', '/api/privacy', { allowDirectMessages: true, userId: alice.id, id: alice.id });
    await expectApi(stack.baseUrl, alice.token, 'PUT', '/api/privacy', { isProfilePrivate: false, userId: bob.id });
    const bobMe = (await expectApi(stack.baseUrl, bob.token, 'GET', '/api/me')) as { isProfilePrivate: boolean };
    expect(bobMe.isProfilePrivate).toBe(false);
  });

  it('session and comment: the owner is the caller, counters start at zero, times are the server’s', async () => {
    const session: FeedSession = await logSessionViaApi(stack.baseUrl, alice, {
      title: 'Forged fields',
      ...Object.fromEntries(Object.entries(forged(bob)).map(([k, v]) => [k, String(v)])),
      likeCount: '500',
      commentCount: '42',
    });
    expect(session.id).not.toBe(forgedId);
    expect(session).toMatchObject({ userId: alice.id, likeCount: 0, commentCount: 0 });
    recent(session.createdAt);
    const comment = (await expectApi(stack.baseUrl, alice.token, 'POST', `/api/sessions/${session.id}/comments`, {
      content: 'mine',
      ...forged(bob),
      sessionId: randomUUID(),
    })) as SessionComment;
    expect(comment).toMatchObject({ userId: alice.id, sessionId: session.id, content: 'mine' });
    expect(comment.id).not.toBe(forgedId);
    recent(comment.createdAt);
  });

  it('album: owned by the caller, no photo count of its own', async () => {
    const album = (await expectApi(stack.baseUrl, alice.token, 'POST', '/api/albums', { name: 'Forged', ...forged(bob), photoCount: 99, coverPhoto: 'https://evil.example/x.jpg' }, 201)) as Album;
    expect(album).toMatchObject({ userId: alice.id, photoCount: 0, coverPhoto: null });
    expect(album.id).not.toBe(forgedId);
    const bobsAlbums = (await expectApi(stack.baseUrl, bob.token, 'GET', '/api/albums')) as Album[];
    expect(bobsAlbums.some((a) => a.id === album.id)).toBe(false);
  });

  it('review: written as the caller, verified by the server, no helpful votes', async () => {
    const bars = (await expectApi(stack.baseUrl, alice.token, 'GET', '/api/bars')) as Array<{ id: string }>;
    const barId = bars[0]?.id ?? '';
    const review = (await expectApi(stack.baseUrl, alice.token, 'POST', `/api/bars/${barId}/reviews`, {
      rating: 4,
      reviewText: 'Forged fields',
      ...forged(bob),
      helpfulCount: 99,
      isVerified: false,
      source: 'google',
      authorName: 'Someone Else',
    }, 201)) as Review;
    expect(review).toMatchObject({ userId: alice.id, barId, helpfulCount: 0, isVerified: true, source: 'hoptrack', isOwn: true });
    expect(review.authorName).not.toBe('Someone Else');
    expect(review.id).not.toBe(forgedId);
  });

  it('messages and conversations: sent by the caller, unread, started by the caller', async () => {
    const carol = await registerUser(stack.baseUrl, 'masscarol');
    await waitForMessagingUser(stack.baseUrl, alice, carol);
    const message = (await expectApi(stack.baseUrl, alice.token, 'POST', '/api/messages', {
      toUserId: bob.id,
      content: 'hello',
      ...forged(carol),
      fromUserId: carol.id,
      senderId: carol.id,
      isRead: true,
      readAt: LONG_AGO,
    }, 201)) as DmMessage;
    expect(message).toMatchObject({ fromUserId: alice.id, toUserId: bob.id, isRead: false, readAt: null });
    recent(message.createdAt);
    const conversation = (await expectApi(stack.baseUrl, alice.token, 'POST', '/api/conversations', {
      participantId: carol.id,
      participant1Id: carol.id,
      participant2Id: bob.id,
      unreadCount: 7,
    }, 201)) as Conversation;
    expect(conversation).toMatchObject({ participant1Id: alice.id, participant2Id: carol.id, unreadCount: 0, lastMessage: null });
  });

  it('friend request: pending, from the caller', async () => {
    const dora = await registerUser(stack.baseUrl, 'massdora');
    await waitForSocialUser(stack.baseUrl, alice, dora);
    const request = (await expectApi(stack.baseUrl, alice.token, 'POST', '/api/friendships', {
      friendId: dora.id,
      status: 'accepted',
      ...forged(bob),
      requesterId: bob.id,
    }, 201)) as Friendship;
    expect(request).toMatchObject({ userId: alice.id, friendId: dora.id, status: 'pending' });
    expect(request.id).not.toBe(forgedId);
  });
});
