import { randomUUID } from 'node:crypto';
import { NEXT_CURSOR_HEADER, type Notification, type NotificationSettings } from '@hoptrack/proto';
import { expectError, ok } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNotifications, type Client, type TestNotifications } from './support';

let t: TestNotifications;
beforeAll(async () => {
  t = await startTestNotifications();
});
afterAll(() => t.close());

const unread = async (client: Client) => ok<{ count: number }>(await client.get('/api/notifications/unread-count')).count;

/** `count` people each send `to` a friend request: `count` entries, newest last sent. */
async function requests(to: Client, count: number): Promise<Client[]> {
  const senders: Client[] = [];
  for (let i = 0; i < count; i += 1) {
    const sender = await t.user({ displayName: `Sender ${i}` });
    await t.publish('social.friendship.requested.v1', { friendshipId: randomUUID(), requesterId: sender.id, recipientId: to.id });
    senders.push(sender);
  }
  return senders;
}

describe('GET /api/notifications', () => {
  it('pages newest first with the x-next-cursor header until the last page', async () => {
    const alice = await t.user();
    await requests(alice, 5);
    const first = await alice.get('/api/notifications?limit=2');
    const page1 = ok<Notification[]>(first);
    expect(page1.map((n) => n.text)).toEqual(['Sender 4 sent you a friend request', 'Sender 3 sent you a friend request']);
    const cursor = first.headers[NEXT_CURSOR_HEADER];
    expect(typeof cursor).toBe('string');
    const second = await alice.get(`/api/notifications?limit=2&cursor=${String(cursor)}`);
    expect(ok<Notification[]>(second).map((n) => n.text)).toEqual(['Sender 2 sent you a friend request', 'Sender 1 sent you a friend request']);
    const third = await alice.get(`/api/notifications?limit=2&cursor=${String(second.headers[NEXT_CURSOR_HEADER])}`);
    expect(ok<Notification[]>(third).map((n) => n.text)).toEqual(['Sender 0 sent you a friend request']);
    expect(third.headers[NEXT_CURSOR_HEADER]).toBeUndefined();
  });

  it('answers 400 naming the field for a bad limit or cursor, and 401 without a token', async () => {
    const alice = await t.user();
    expectError(await alice.get('/api/notifications?limit=0'), 400, { field: 'limit' });
    expectError(await alice.get('/api/notifications?limit=abc'), 400, { field: 'limit' });
    expectError(await alice.get('/api/notifications?cursor=nonsense'), 400, { field: 'cursor' });
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/notifications' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('POST /api/notifications/read', () => {
  it('marks the named entries read, then all', async () => {
    const alice = await t.user();
    await requests(alice, 3);
    const [newest, middle] = ok<Notification[]>(await alice.get('/api/notifications'));
    expect(await unread(alice)).toBe(3);
    expect(ok<{ updated: number }>(await alice.post('/api/notifications/read', { ids: [newest?.id, middle?.id] }))).toEqual({ updated: 2 });
    expect(await unread(alice)).toBe(1);
    const list = ok<Notification[]>(await alice.get('/api/notifications'));
    expect(list.map((n) => n.read)).toEqual([true, true, false]);
    // Marking read again changes nothing.
    expect(ok<{ updated: number }>(await alice.post('/api/notifications/read', { ids: [newest?.id] }))).toEqual({ updated: 0 });
    expect(ok<{ updated: number }>(await alice.post('/api/notifications/read', { all: true }))).toEqual({ updated: 1 });
    expect(await unread(alice)).toBe(0);
  });

  it("answers 404 for someone else's or an unknown notification, changing nothing", async () => {
    const [alice, bob] = await Promise.all([t.user(), t.user()]);
    await requests(alice, 1);
    await requests(bob, 1);
    const [bobs] = ok<Notification[]>(await bob.get('/api/notifications'));
    const [alices] = ok<Notification[]>(await alice.get('/api/notifications'));
    expectError(await alice.post('/api/notifications/read', { ids: [alices?.id, bobs?.id] }), 404, { message: 'Notification not found' });
    expectError(await alice.post('/api/notifications/read', { ids: [randomUUID()] }), 404);
    expect(await unread(alice)).toBe(1);
    expect(await unread(bob)).toBe(1);
  });

  it('answers 400 for a body that is neither {ids} nor {all: true}', async () => {
    const alice = await t.user();
    expectError(await alice.post('/api/notifications/read', {}), 400);
    expectError(await alice.post('/api/notifications/read', { all: false }), 400);
    expectError(await alice.post('/api/notifications/read', { ids: [] }), 400);
    expectError(await alice.post('/api/notifications/read', { ids: ['not-an-id'] }), 400);
  });
});

describe('GET /api/notifications?unread=&kind= (filters)', () => {
  it('narrows to the unread entries, to some kinds, or both, and pages within the filter', async () => {
    const [alice, bob] = await Promise.all([t.user(), t.user({ displayName: 'Bob' })]);
    const sessionId = randomUUID();
    await requests(alice, 2);
    await t.publish('session.liked.v1', { sessionId, ownerId: alice.id, userId: bob.id });
    const all = ok<Notification[]>(await alice.get('/api/notifications'));
    expect(all.map((n) => n.kind)).toEqual(['session.liked', 'friend.requested', 'friend.requested']);
    const [, newestRequest] = all;
    ok(await alice.post('/api/notifications/read', { ids: [newestRequest?.id] }));

    const texts = async (query: string) => ok<Notification[]>(await alice.get(`/api/notifications?${query}`)).map((n) => n.text);
    expect(await texts('unread=true')).toEqual(['Bob liked your session', 'Sender 0 sent you a friend request']);
    expect(await texts('unread=false')).toEqual(['Sender 1 sent you a friend request']);
    expect(await texts('kind=friend.requested')).toEqual(['Sender 1 sent you a friend request', 'Sender 0 sent you a friend request']);
    expect(await texts('kind=session.liked,session.commented')).toEqual(['Bob liked your session']);
    expect(await texts('kind=friend.requested&unread=true')).toEqual(['Sender 0 sent you a friend request']);
    expect(await texts('kind=challenge.invited')).toEqual([]);
    const first = await alice.get('/api/notifications?kind=friend.requested&limit=1');
    expect(ok<Notification[]>(first).map((n) => n.text)).toEqual(['Sender 1 sent you a friend request']);
    expect(await texts(`kind=friend.requested&limit=1&cursor=${String(first.headers[NEXT_CURSOR_HEADER])}`)).toEqual(['Sender 0 sent you a friend request']);
  });

  it('answers 400 naming the field for a bad unread or kind', async () => {
    const alice = await t.user();
    expectError(await alice.get('/api/notifications?unread=yes'), 400, { field: 'unread', message: "unread must be 'true' or 'false'" });
    expectError(await alice.get('/api/notifications?kind=session.poked'), 400, { field: 'kind' });
    expectError(await alice.get('/api/notifications?kind=friend.requested,nope'), 400, { field: 'kind' });
    expectError(await alice.get('/api/notifications?kind=,'), 400, { field: 'kind' });
  });
});

describe('POST /api/notifications/{id}/unread', () => {
  it('marks a read entry unread again: back in the list filter and the count, announced to the bell', async () => {
    const alice = await t.user();
    await requests(alice, 2);
    const [newest] = ok<Notification[]>(await alice.get('/api/notifications'));
    ok(await alice.post('/api/notifications/read', { all: true }));
    expect(await unread(alice)).toBe(0);
    const counts = async () => (await t.changes()).filter((e) => e.data.userId === alice.id).map((e) => e.data.unreadCount);
    await expect.poll(async () => (await counts()).at(-1)).toBe(0);
    const before = (await counts()).length;
    expect(ok<{ updated: number }>(await alice.post(`/api/notifications/${newest?.id}/unread`))).toEqual({ updated: 1 });
    expect(await unread(alice)).toBe(1);
    expect(ok<Notification[]>(await alice.get('/api/notifications?unread=true')).map((n) => n.id)).toEqual([newest?.id]);
    await expect.poll(async () => (await counts()).slice(before)).toEqual([1]);
    // Already unread: nothing changes, nothing is announced.
    expect(ok<{ updated: number }>(await alice.post(`/api/notifications/${newest?.id}/unread`))).toEqual({ updated: 0 });
    expect(await unread(alice)).toBe(1);
  });

  it("answers 404 for someone else's or an unknown notification and 400 for a malformed id, changing nothing", async () => {
    const [alice, bob] = await Promise.all([t.user(), t.user()]);
    await requests(bob, 1);
    const [bobs] = ok<Notification[]>(await bob.get('/api/notifications'));
    ok(await bob.post('/api/notifications/read', { all: true }));
    expectError(await alice.post(`/api/notifications/${bobs?.id}/unread`), 404, { message: 'Notification not found' });
    expectError(await alice.post(`/api/notifications/${randomUUID()}/unread`), 404, { message: 'Notification not found' });
    expectError(await alice.post('/api/notifications/not-an-id/unread'), 400, { field: 'id' });
    expect(await unread(bob)).toBe(0);
    const anonymous = await t.app.inject({ method: 'POST', url: `/api/notifications/${bobs?.id}/unread` });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('settings', () => {
  it('starts from each kind’s defaults (friend requests by e-mail) and changes only the kinds sent', async () => {
    const alice = await t.user();
    const initial = ok<NotificationSettings>(await alice.get('/api/notifications/settings'));
    expect(initial.kinds['friend.requested']).toEqual({ inApp: true, email: true, label: 'Friend requests' });
    expect(initial.kinds['session.liked']).toMatchObject({ inApp: true, email: false });
    const changed = ok<NotificationSettings>(await alice.put('/api/notifications/settings', { kinds: { 'session.liked': { inApp: false, email: false } } }));
    expect(changed.kinds['session.liked']).toMatchObject({ inApp: false, email: false });
    expect(changed.kinds['friend.requested']).toMatchObject({ inApp: true, email: true });
    expect(ok<NotificationSettings>(await alice.get('/api/notifications/settings'))).toEqual(changed);
  });

  it('a kind turned off in-app hides its entries and records no new ones', async () => {
    const [alice, bob, carl] = await Promise.all([t.user(), t.user(), t.user()]);
    const sessionId = randomUUID();
    await t.publish('session.liked.v1', { sessionId, ownerId: alice.id, userId: bob.id });
    expect(await unread(alice)).toBe(1);
    ok(await alice.put('/api/notifications/settings', { kinds: { 'session.liked': { inApp: false, email: false } } }));
    expect(await unread(alice)).toBe(0);
    expect(ok<Notification[]>(await alice.get('/api/notifications'))).toEqual([]);
    await t.publish('session.liked.v1', { sessionId, ownerId: alice.id, userId: carl.id });
    expect(await t.prisma.notificationActor.count({ where: { actorId: carl.id } })).toBe(0);
    ok(await alice.put('/api/notifications/settings', { kinds: { 'session.liked': { inApp: true, email: false } } }));
    expect(await unread(alice)).toBe(1);
  });

  it('answers 400 naming the field for an unknown kind or a non-boolean', async () => {
    const alice = await t.user();
    expectError(await alice.put('/api/notifications/settings', { kinds: { 'beer.drunk': { inApp: true, email: true } } }), 400);
    expectError(await alice.put('/api/notifications/settings', { kinds: { 'session.liked': { inApp: 'yes', email: true } } }), 400, {
      field: 'kinds.session.liked.inApp',
    });
    expectError(await alice.put('/api/notifications/settings', {}), 400, { field: 'kinds' });
  });
});

describe('the bell hears of every change', () => {
  it('publishes notification.changed.v1 with the new unread count on a new entry, a retraction and a read', async () => {
    const [alice, bob] = await Promise.all([t.user(), t.user()]);
    const sessionId = randomUUID();
    const mine = async () => (await t.changes()).filter((e) => e.data.userId === alice.id).map((e) => e.data.unreadCount);
    await t.publish('session.liked.v1', { sessionId, ownerId: alice.id, userId: bob.id });
    await expect.poll(mine).toEqual([1]);
    await t.publish('session.unliked.v1', { sessionId, ownerId: alice.id, userId: bob.id });
    await expect.poll(mine).toEqual([1, 0]);
    await t.publish('session.liked.v1', { sessionId, ownerId: alice.id, userId: bob.id });
    ok(await alice.post('/api/notifications/read', { all: true }));
    await expect.poll(mine).toEqual([1, 0, 1, 0]);
  });
});
