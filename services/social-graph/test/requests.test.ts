import type { Friend, FriendRequest, Friendship, OtherUser } from '@hoptrack/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsDuring, expectError, idsOf, noContent, ok, unknownId } from './helpers';
import { startTestSocial, type TestSocial, type TestUser } from './support';

let social: TestSocial;
beforeAll(async () => {
  social = await startTestSocial();
});
afterAll(() => social.close());

const request = (from: TestUser, to: TestUser | string, body?: object) =>
  social.as(from).post('/api/friendships', body ?? { friendId: typeof to === 'string' ? to : to.id });
const respond = (by: TestUser, id: string, action: string) => social.as(by).patch(`/api/friendships/${id}`, { action });
const block = async (by: TestUser, whom: TestUser) => noContent(await social.as(by).post(`/api/friends/${whom.id}/block`, {}));
const rowsBetween = (a: TestUser, b: TestUser) =>
  social.prisma.friendship.findMany({
    where: { OR: [{ userId: a.id, friendId: b.id }, { userId: b.id, friendId: a.id }] },
    orderBy: { userId: 'asc' },
  });

describe('POST /api/friendships refusals', () => {
  const BLOCKED = 'You cannot send a friend request to this user';
  it.each([
    { name: 'a request to yourself', setup: async () => undefined, to: 'self', status: 400, field: 'friendId', message: 'You cannot send a friend request to yourself' },
    { name: 'an unknown user', setup: async () => undefined, to: 'unknown', status: 404, message: 'User not found' },
    { name: 'a malformed friendId', setup: async () => undefined, to: 'not-a-uuid', status: 400, field: 'friendId' },
    { name: 'no friendId', setup: async () => undefined, to: 'missing', status: 400, field: 'friendId', message: 'friendId is required' },
    { name: 'a duplicate request', setup: async (a: TestUser, b: TestUser) => void ok(await request(a, b), 201), to: 'b', status: 409, field: 'friendId', message: 'Friend request already sent' },
    { name: 'a request to an existing friend', setup: (a: TestUser, b: TestUser) => social.befriend(a, b), to: 'b', status: 409, field: 'friendId', message: 'You are already friends' },
    { name: 'a request to someone you blocked', setup: (a: TestUser, b: TestUser) => block(a, b), to: 'b', status: 403, message: BLOCKED },
    { name: 'a request to someone who blocked you', setup: (a: TestUser, b: TestUser) => block(b, a), to: 'b', status: 403, message: BLOCKED },
  ])('refuses $name with $status and changes nothing', async ({ setup, to, status, field, message }) => {
    const [a, b] = await Promise.all([social.user(), social.user()]);
    await setup(a, b);
    const rowsBefore = await rowsBetween(a, b);
    const body = { self: { friendId: a.id }, unknown: { friendId: unknownId() }, 'not-a-uuid': { friendId: 'not-a-uuid' }, missing: {}, b: { friendId: b.id } }[to];
    const events = await eventsDuring(social, [a, b], async () => expectError(await request(a, b, body), status, { field, message }));
    expect(events).toEqual([]);
    expect(await rowsBetween(a, b)).toEqual(rowsBefore);
  });

  it('answers a block the same whoever blocked whom, so a block cannot be detected', async () => {
    const [a, b, c, d] = await Promise.all([social.user(), social.user(), social.user(), social.user()]);
    await block(a, b); // a blocked b
    await block(d, c); // c was blocked by d
    const strip = (body: string) => {
      const { requestId, ...rest } = JSON.parse(body) as { requestId: string };
      return { rest, requestId };
    };
    const mine = await request(a, b);
    const theirs = await request(c, d);
    expect(mine.statusCode).toBe(403);
    expect(theirs.statusCode).toBe(403);
    expect(strip(mine.body).rest).toEqual(strip(theirs.body).rest);
    expect(strip(mine.body).rest).toEqual({ statusCode: 403, error: 'Forbidden', message: 'You cannot send a friend request to this user' });
  });
});

describe('a request answered by a request', () => {
  it('accepts the pending request instead of creating a second one (201, accepted)', async () => {
    const [a, b] = await Promise.all([social.user(), social.user()]);
    const first = ok<Friendship>(await request(a, b), 201);
    const answer = ok<Friendship>(await request(b, a), 201);
    expect(answer).toMatchObject({ id: first.id, userId: a.id, friendId: b.id, status: 'accepted' });
    expect(idsOf(ok<Friend[]>(await social.as(a).get('/api/friends')))).toEqual([b.id]);
    expect(idsOf(ok<Friend[]>(await social.as(b).get('/api/friends')))).toEqual([a.id]);
    expect((await rowsBetween(a, b)).map((r) => r.status)).toEqual(['accepted', 'accepted']);
    expect(ok<FriendRequest[]>(await social.as(b).get('/api/friends/requests'))).toEqual([]);
  });

  it('ends as friends when both ask at the same moment', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = await Promise.all([social.user(), social.user()]);
      const [ab, ba] = await Promise.all([request(a, b), request(b, a)]);
      expect([ab.statusCode, ba.statusCode]).toEqual([201, 201]);
      expect((await rowsBetween(a, b)).map((r) => r.status)).toEqual(['accepted', 'accepted']);
      expect(ok<OtherUser>(await social.as(a).get(`/api/users/${b.id}`)).friendshipStatus).toBe('accepted');
    }
  });
});

describe('PATCH /api/friendships/{id}', () => {
  it('accepting makes both friends; the response names the request', async () => {
    const [a, b] = await Promise.all([social.user(), social.user()]);
    const sent = ok<Friendship>(await request(a, b), 201);
    expect(ok(await respond(b, sent.id, 'accept'))).toEqual({ id: sent.id, status: 'accepted' });
    expect(ok<OtherUser>(await social.as(b).get(`/api/users/${a.id}`))).toMatchObject({ friendshipStatus: 'accepted', email: null }); // shown to friends only with A's switch on (issue 40)
  });

  it('rejecting deletes the request: nobody follows anybody, and the sender may ask again', async () => {
    const [a, b] = await Promise.all([social.user(), social.user()]);
    const sent = ok<Friendship>(await request(a, b), 201);
    expect(ok(await respond(b, sent.id, 'reject'))).toEqual({ id: sent.id, status: 'rejected' });
    expect(await rowsBetween(a, b)).toEqual([]);
    expect(ok<FriendRequest[]>(await social.as(b).get('/api/me/friend-requests'))).toEqual([]);
    expect(ok<OtherUser>(await social.as(a).get(`/api/users/${b.id}`)).friendshipStatus).toBe('none');
    expect(ok<Friendship>(await request(a, b), 201).status).toBe('pending');
  });

  it.each([
    { name: 'an unknown request id', by: 'b', id: 'unknown', action: 'accept', status: 404, message: 'Friend request not found' },
    { name: 'a malformed id', by: 'b', id: 'malformed', action: 'accept', status: 400, field: 'id' },
    { name: 'an unknown action', by: 'b', id: 'request', action: 'maybe', status: 400, field: 'action' },
    { name: 'the sender accepting', by: 'a', id: 'request', action: 'accept', status: 403, message: 'Only the recipient can respond to this friend request' },
    { name: 'the sender rejecting', by: 'a', id: 'request', action: 'reject', status: 403 },
    { name: 'a third user accepting', by: 'c', id: 'request', action: 'accept', status: 403 },
    { name: 'accepting twice', by: 'b', id: 'request', action: 'accept', accepted: true, status: 409, message: 'Friend request already accepted' },
    { name: 'rejecting after accepting', by: 'b', id: 'request', action: 'reject', accepted: true, status: 409 },
    { name: 'the sender responding to their accepted request', by: 'a', id: 'request', action: 'reject', accepted: true, status: 403 },
    { name: 'rejecting twice', by: 'b', id: 'request', action: 'reject', rejected: true, status: 404 },
  ])('refuses $name with $status and changes nothing', async ({ by, id, action, status, field, message, accepted, rejected }) => {
    const users = { a: await social.user(), b: await social.user(), c: await social.user() };
    const sent = ok<Friendship>(await request(users.a, users.b), 201);
    if (accepted) ok(await respond(users.b, sent.id, 'accept'));
    if (rejected) ok(await respond(users.b, sent.id, 'reject'));
    const before = await rowsBetween(users.a, users.b);
    const target = { unknown: unknownId(), malformed: '12345', request: sent.id }[id] ?? sent.id;
    const who = by === 'a' ? users.a : by === 'b' ? users.b : users.c;
    const events = await eventsDuring(social, [users.a, users.b], async () => expectError(await respond(who, target, action), status, { field, message }));
    expect(events).toEqual([]);
    expect(await rowsBetween(users.a, users.b)).toEqual(before);
  });
});

describe('incoming requests', () => {
  it('lists requests to me, newest first, at both addresses; never my own outgoing ones', async () => {
    const [me, x, y, z] = await Promise.all([social.user(), social.user(), social.user(), social.user()]);
    const fromX = ok<Friendship>(await request(x, me), 201);
    const fromY = ok<Friendship>(await request(y, me), 201);
    ok(await request(me, z), 201);
    const list = ok<FriendRequest[]>(await social.as(me).get('/api/friends/requests'));
    expect(list.map((r) => [r.id, r.user.id])).toEqual([
      [fromY.id, y.id],
      [fromX.id, x.id],
    ]);
    expect(ok<FriendRequest[]>(await social.as(me).get('/api/me/friend-requests'))).toEqual(list);
    expect(ok<FriendRequest[]>(await social.as(z).get('/api/friends/requests')).map((r) => r.user.id)).toEqual([me.id]);
  });

  it("shows a private requester's card without their bio (they are not a friend yet)", async () => {
    const [me, shy, open] = await Promise.all([social.user(), social.user({ private: true }), social.user()]);
    ok(await request(shy, me), 201);
    ok(await request(open, me), 201);
    const cards = new Map(ok<FriendRequest[]>(await social.as(me).get('/api/friends/requests')).map((r) => [r.user.id, r.user]));
    expect(cards.get(shy.id)).toMatchObject({ username: shy.username, isProfilePrivate: true, bio: null });
    expect(cards.get(open.id)).toMatchObject({ username: open.username, isProfilePrivate: false, bio: open.snapshot.bio });
  });
});

describe('DELETE /api/friends/{id} (unfriend)', () => {
  it.each(['requester', 'recipient'] as const)('lets the %s end the friendship: both rows go, both sides see none', async (side) => {
    const [a, b] = await Promise.all([social.user(), social.user()]);
    await social.befriend(a, b);
    const [me, other] = side === 'requester' ? [a, b] : [b, a];
    noContent(await social.as(me).delete(`/api/friends/${other.id}`));
    expect(await rowsBetween(a, b)).toEqual([]);
    expect(ok<Friend[]>(await social.as(a).get('/api/friends'))).toEqual([]);
    expect(ok<Friend[]>(await social.as(b).get('/api/friends'))).toEqual([]);
    expect(ok<OtherUser>(await social.as(other).get(`/api/users/${me.id}`))).toMatchObject({ friendshipStatus: 'none', email: null });
  });

  it.each([
    { name: 'a stranger', setup: async () => undefined, target: 'b' },
    { name: 'someone I only sent a request to', setup: async (a: TestUser, b: TestUser) => void ok(await request(a, b), 201), target: 'b' },
    { name: 'someone who only sent me a request', setup: async (a: TestUser, b: TestUser) => void ok(await request(b, a), 201), target: 'b' },
    { name: 'an unknown user', setup: async () => undefined, target: 'unknown' },
  ])('answers 404 for $name, and the request survives', async ({ setup, target }) => {
    const [a, b] = await Promise.all([social.user(), social.user()]);
    await setup(a, b);
    const before = await rowsBetween(a, b);
    expectError(await social.as(a).delete(`/api/friends/${target === 'b' ? b.id : unknownId()}`), 404, { message: 'Friend not found' });
    expect(await rowsBetween(a, b)).toEqual(before);
  });
});

describe('DELETE /api/friendships/{id} (withdraw) and GET /api/friends/requests/sent', () => {
  const withdraw = (by: TestUser, id: string) => social.as(by).delete(`/api/friendships/${id}`);

  it('lists my pending requests, newest first, each naming its recipient; never incoming ones or friends', async () => {
    const [me, x, y, z, f] = await Promise.all([social.user(), social.user(), social.user(), social.user(), social.user()]);
    const toX = ok<Friendship>(await request(me, x), 201);
    const toY = ok<Friendship>(await request(me, y), 201);
    ok(await request(z, me), 201);
    await social.befriend(me, f);
    expect(ok<FriendRequest[]>(await social.as(me).get('/api/friends/requests/sent')).map((r) => [r.id, r.user.id])).toEqual([
      [toY.id, y.id],
      [toX.id, x.id],
    ]);
    expect(ok<FriendRequest[]>(await social.as(x).get('/api/friends/requests/sent'))).toEqual([]);
  });

  it('lets the sender withdraw: the row goes, one rejection event, nobody follows, both may ask again', async () => {
    const [a, b] = await Promise.all([social.user(), social.user()]);
    const sent = ok<Friendship>(await request(a, b), 201);
    const events = await eventsDuring(social, [a, b], async () => noContent(await withdraw(a, sent.id)));
    expect(events).toEqual([{ type: 'social.friendship.rejected.v1', data: { friendshipId: sent.id, requesterId: a.id, recipientId: b.id } }]);
    expect(await rowsBetween(a, b)).toEqual([]);
    expect(ok<FriendRequest[]>(await social.as(b).get('/api/friends/requests'))).toEqual([]);
    expect(ok<FriendRequest[]>(await social.as(a).get('/api/friends/requests/sent'))).toEqual([]);
    expect(ok<OtherUser>(await social.as(a).get(`/api/users/${b.id}`)).friendshipStatus).toBe('none');
    expect(ok<Friendship>(await request(b, a), 201).status).toBe('pending');
  });

  it.each([
    { name: 'a malformed id', by: 'a', id: 'malformed', status: 400, field: 'id' },
    { name: 'an unknown request id', by: 'a', id: 'unknown', status: 404, message: 'Friend request not found' },
    { name: 'a third user', by: 'c', id: 'request', status: 404, message: 'Friend request not found' },
    { name: 'the recipient (who answers it instead)', by: 'b', id: 'request', status: 403, message: 'Only the sender can withdraw this friend request' },
    { name: 'an accepted request', by: 'a', id: 'request', accepted: true, status: 409, message: 'Friend request already accepted' },
    { name: 'a withdrawn request', by: 'a', id: 'request', withdrawn: true, status: 404 },
  ])('refuses $name with $status and changes nothing', async ({ by, id, status, field, message, accepted, withdrawn }) => {
    const users = { a: await social.user(), b: await social.user(), c: await social.user() };
    const sent = ok<Friendship>(await request(users.a, users.b), 201);
    if (accepted) ok(await respond(users.b, sent.id, 'accept'));
    if (withdrawn) noContent(await withdraw(users.a, sent.id));
    const before = await rowsBetween(users.a, users.b);
    const target = { unknown: unknownId(), malformed: '12345', request: sent.id }[id] ?? sent.id;
    const events = await eventsDuring(social, [users.a, users.b], async () => expectError(await withdraw(users[by as 'a' | 'b' | 'c'], target), status, { field, message }));
    expect(events).toEqual([]);
    expect(await rowsBetween(users.a, users.b)).toEqual(before);
  });
});
