import type { BlockedUser, FollowList, Friend, FriendRequest, OtherUser } from '@hoptrack/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsDuring, expectError, idsOf, noContent, ok, sortedIds, tag, unknownId } from './helpers';
import { startTestSocial, type TestSocial, type TestUser } from './support';

let social: TestSocial;
beforeAll(async () => {
  social = await startTestSocial();
});
afterAll(() => social.close());

const blockUrl = (u: TestUser | string) => `/api/friends/${typeof u === 'string' ? u : u.id}/block`;
const block = async (by: TestUser, whom: TestUser, body: object = {}) => noContent(await social.as(by).post(blockUrl(whom), body));
const unblock = async (by: TestUser, whom: TestUser) => noContent(await social.as(by).delete(blockUrl(whom)));
const request = async (from: TestUser, to: TestUser) => ok(await social.as(from).post('/api/friendships', { friendId: to.id }), 201);
const rowsBetween = (a: TestUser, b: TestUser) =>
  social.prisma.friendship.count({ where: { OR: [{ userId: a.id, friendId: b.id }, { userId: b.id, friendId: a.id }] } });

describe('POST and DELETE /api/friends/{id}/block refusals', () => {
  it.each([
    { name: 'blocking yourself', method: 'post', target: 'self', status: 400, field: 'id', message: 'You cannot block yourself' },
    { name: 'blocking an unknown user', method: 'post', target: 'unknown', status: 404, message: 'User not found' },
    { name: 'blocking twice', method: 'post', target: 'b', blocked: true, status: 409, message: 'User already blocked' },
    { name: 'a reason over 200 characters', method: 'post', target: 'b', body: { reason: 'x'.repeat(201) }, status: 400, field: 'reason' },
    { name: 'unblocking someone not blocked', method: 'delete', target: 'b', status: 404, message: 'User is not blocked' },
    { name: 'unblocking someone who blocked you', method: 'delete', target: 'b', blockedBy: true, status: 404, message: 'User is not blocked' },
    { name: 'unblocking an unknown user', method: 'delete', target: 'unknown', status: 404 },
    { name: 'unblocking yourself', method: 'delete', target: 'self', status: 404 },
  ] as const)('refuses $name with $status', async (row) => {
    const [a, b] = await Promise.all([social.user(), social.user()]);
    if ('blocked' in row) await block(a, b);
    if ('blockedBy' in row) await block(b, a);
    const before = await social.prisma.blockedUser.findMany({ where: { OR: [{ blockerId: a.id }, { blockerId: b.id }] } });
    const id = { self: a.id, unknown: unknownId(), b: b.id }[row.target];
    const events = await eventsDuring(social, [a, b], async () => {
      const res = row.method === 'post' ? await social.as(a).post(blockUrl(id), 'body' in row ? row.body : {}) : await social.as(a).delete(blockUrl(id));
      expectError(res, row.status, { field: 'field' in row ? row.field : undefined, message: 'message' in row ? row.message : undefined });
    });
    expect(events).toEqual([]);
    expect(await social.prisma.blockedUser.findMany({ where: { OR: [{ blockerId: a.id }, { blockerId: b.id }] } })).toEqual(before);
  });

  it('accepts a block without any body (the reason is optional)', async () => {
    const [a, b] = await Promise.all([social.user(), social.user()]);
    noContent(await social.as(a).post(blockUrl(b)));
    expect(ok<BlockedUser[]>(await social.as(a).get('/api/friends/blocked'))).toEqual([expect.objectContaining({ id: b.id, reason: null })]);
  });
});

describe('blocking ends whatever was between the two', () => {
  it.each([
    { name: 'a friendship', setup: (a: TestUser, b: TestUser) => social.befriend(a, b) },
    { name: 'a friendship the other side started', setup: (a: TestUser, b: TestUser) => social.befriend(b, a) },
    { name: 'my pending request to them', setup: (a: TestUser, b: TestUser) => request(a, b) },
    { name: 'their pending request to me', setup: (a: TestUser, b: TestUser) => request(b, a) },
  ])('removes $name (rows both ways), from every list and count', async ({ setup }) => {
    const [a, b] = await Promise.all([social.user(), social.user()]);
    await setup(a, b);
    expect(await rowsBetween(a, b)).toBeGreaterThan(0);
    await block(a, b);
    expect(await rowsBetween(a, b)).toBe(0);
    for (const [me, other] of [
      [a, b],
      [b, a],
    ] as const) {
      expect(ok<Friend[]>(await social.as(me).get('/api/friends'))).toEqual([]);
      expect(ok<FriendRequest[]>(await social.as(me).get('/api/friends/requests'))).toEqual([]);
      expect(ok<FollowList>(await social.as(me).get(`/api/users/${me.id}/followers`))).toMatchObject({ users: [], followersCount: 0, followingCount: 0 });
      expect(ok(await social.as(me).get('/api/me/stats'))).toMatchObject({ friendsCount: 0, followersCount: 0, followingCount: 0 });
      expectError(await social.as(me).get(`/api/users/${other.id}`), 404);
    }
  });

  it('does not restore the friendship on unblock: the two are strangers again', async () => {
    const [a, b] = await Promise.all([social.user(), social.user()]);
    await social.befriend(a, b);
    await block(a, b);
    await unblock(a, b);
    expect(ok<OtherUser>(await social.as(a).get(`/api/users/${b.id}`))).toMatchObject({ friendshipStatus: 'none', friendshipId: null });
    expect(ok<OtherUser>(await social.as(b).get(`/api/users/${a.id}`))).toMatchObject({ friendshipStatus: 'none', friendshipId: null });
    expect(ok<BlockedUser[]>(await social.as(a).get('/api/friends/blocked'))).toEqual([]);
    await request(b, a);
  });

  it('keeps the two hidden until both blocks are lifted', async () => {
    const [a, b] = await Promise.all([social.user(), social.user()]);
    await block(a, b);
    await block(b, a); // allowed: it tells b nothing
    await unblock(a, b);
    expectError(await social.as(a).get(`/api/users/${b.id}`), 404, { message: 'User not found' });
    expectError(await social.as(b).get(`/api/users/${a.id}`), 404, { message: 'User not found' });
    await unblock(b, a);
    expect(ok<OtherUser>(await social.as(a).get(`/api/users/${b.id}`)).id).toBe(b.id);
  });
});

describe('GET /api/friends/blocked', () => {
  it('lists whom I blocked, newest first, with the trimmed reason and no bio; never who blocked me', async () => {
    const [me, first, second, blocker] = await Promise.all([social.user(), social.user(), social.user(), social.user()]);
    await block(me, first, { reason: '  spam  ' });
    await block(me, second);
    await block(blocker, me);
    const list = ok<BlockedUser[]>(await social.as(me).get('/api/friends/blocked'));
    expect(list).toEqual([
      expect.objectContaining({ id: second.id, username: second.username, reason: null, bio: null, blockedAt: expect.any(String) }),
      expect.objectContaining({ id: first.id, username: first.username, reason: 'spam', bio: null }),
    ]);
    expect(ok<BlockedUser[]>(await social.as(blocker).get('/api/friends/blocked')).map((u) => u.id)).toEqual([me.id]);
    expect(ok<BlockedUser[]>(await social.as(first).get('/api/friends/blocked'))).toEqual([]);
  });
});

describe('a block hides the two from each other everywhere', () => {
  // viewer and hidden are in a block (either way); both are linked to the public `hub`.
  it.each(['viewer blocked them', 'they blocked the viewer'] as const)('%s: profiles, search and third-party lists', async (who) => {
    const name = tag('hide');
    const [viewer, hidden, hub, other] = await Promise.all([
      social.user(),
      social.user({ username: `${name}_h`, displayName: `${name} Hidden` }),
      social.user(),
      social.user({ username: `${name}_o`, displayName: `${name} Other` }),
    ]);
    // viewer, hidden and other all follow and are followed by hub.
    await Promise.all([social.befriend(hidden, hub), social.befriend(other, hub), social.befriend(viewer, hub)]);
    if (who === 'viewer blocked them') await block(viewer, hidden);
    else await block(hidden, viewer);

    expectError(await social.as(viewer).get(`/api/users/${hidden.id}`), 404, { message: 'User not found' });
    expectError(await social.as(viewer).get(`/api/users/profile/${hidden.username}`), 404, { message: 'User not found' });
    expectError(await social.as(hidden).get(`/api/users/profile/${viewer.username}`), 404, { message: 'User not found' });
    expect(idsOf(ok<OtherUser[]>(await social.as(viewer).get(`/api/users/search?q=${name}`)))).toEqual([other.id]);
    // hidden would sort first: the page of one is still filled by the next visible user
    expect(idsOf(ok<OtherUser[]>(await social.as(viewer).get(`/api/users/search?q=${name}&limit=1`)))).toEqual([other.id]);

    for (const kind of ['followers', 'following'] as const) {
      const seen = ok<FollowList>(await social.as(viewer).get(`/api/users/${hub.id}/${kind}`));
      expect(sortedIds(seen.users)).toEqual(sortedIds([viewer, other]));
      // The viewer pages through what they may see, and the header counts the same people (issue 19: a
      // count one higher than its list would tell the viewer someone is hidden from them).
      expect(seen.total).toBe(2);
      expect(seen[kind === 'followers' ? 'followersCount' : 'followingCount']).toBe(2);
      expect(ok<FollowList>(await social.as(other).get(`/api/users/${hub.id}/${kind}`))[kind === 'followers' ? 'followersCount' : 'followingCount']).toBe(3);
      const seenByHidden = ok<FollowList>(await social.as(hidden).get(`/api/users/${hub.id}/${kind}`));
      expect(sortedIds(seenByHidden.users)).toEqual(sortedIds([hidden, other]));
      const seenByOther = ok<FollowList>(await social.as(other).get(`/api/users/${hub.id}/${kind}`));
      expect(sortedIds(seenByOther.users)).toEqual(sortedIds([viewer, hidden, other]));
    }
  });

  it('is not undone by a request racing the block', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = await Promise.all([social.user(), social.user()]);
      const [blocked, asked] = await Promise.all([social.as(a).post(blockUrl(b), {}), social.as(b).post('/api/friendships', { friendId: a.id })]);
      expect(blocked.statusCode).toBe(204);
      expect([201, 403]).toContain(asked.statusCode);
      expect(await rowsBetween(a, b)).toBe(0);
    }
  });

  it('is not undone by an acceptance racing the block, and the race never answers 500', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = await Promise.all([social.user(), social.user()]);
      const request = await social.as(b).post('/api/friendships', { friendId: a.id });
      const [blocked, accepted] = await Promise.all([
        social.as(a).post(blockUrl(b), {}),
        social.as(a).patch(`/api/friendships/${request.json().id}`, { action: 'accept' }),
      ]);
      expect(blocked.statusCode).toBe(204);
      expect([200, 404]).toContain(accepted.statusCode);
      expect(await rowsBetween(a, b)).toBe(0);
    }
  });
});
