import { personById } from '@hoptrack/runtime';
import { randomUUID } from 'node:crypto';
import type { FeedSession, PublicSession } from '@hoptrack/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, feedIds, ok } from './helpers';
import { startTestSessions, type Client, type TestSessions } from './support';

let t: TestSessions;
beforeAll(async () => {
  t = await startTestSessions();
});
afterAll(() => t?.close());

const timeline = (user: Client) => t.timelines.members(user.id);
const block = async (blocker: Client, blocked: Client) => {
  await t.publish('social.user.blocked.v1', { blockerId: blocker.id, blockedId: blocked.id });
  await t.settle();
};
const card = async (viewer: Client, id: string) => ok<FeedSession>(await viewer.get(`/api/sessions/${id}`));

describe('a private author', () => {
  it('reaches friends only: feed, detail and the profile list', async () => {
    const [author, friend, stranger, requester] = [await t.user({ private: true }), await t.user(), await t.user(), await t.user()];
    await t.befriend(author, friend);
    // A pending request makes the requester follow, but a private author's sessions stay hidden from them.
    await t.publish('social.friendship.requested.v1', { friendshipId: randomUUID(), requesterId: requester.id, recipientId: author.id });
    await t.settle();
    const { id } = await t.logSession(author, { title: 'Secret stout' });

    expect(await feedIds(friend)).toEqual([id]);
    expect(await feedIds(stranger)).toEqual([]);
    expect(await feedIds(requester)).toEqual([]);
    expect(await timeline(requester)).toEqual([]);

    expect(await card(friend, id)).toMatchObject({ title: 'Secret stout' });
    expectError(await stranger.get(`/api/sessions/${id}`), 404);
    expectError(await requester.get(`/api/sessions/${id}`), 404);

    expect(ok<PublicSession[]>(await friend.get(`/api/users/${author.id}/sessions`)).map((s) => s.id)).toEqual([id]);
    expectError(await stranger.get(`/api/users/${author.id}/sessions`), 403);
    expectError(await requester.get(`/api/users/${author.id}/sessions`), 403);
    expect(ok<PublicSession[]>(await author.get(`/api/users/${author.id}/sessions`)).map((s) => s.id)).toEqual([id]);
  });

  it('going private hides sessions already fanned out to a follower who is not a friend', async () => {
    const [author, follower] = [await t.user(), await t.user()];
    await t.publish('social.friendship.requested.v1', { friendshipId: randomUUID(), requesterId: follower.id, recipientId: author.id });
    await t.settle();
    const { id } = await t.logSession(author);
    expect(await feedIds(follower)).toEqual([id]);
    await t.publish('user.updated.v1', { ...(await snapshotOf(author.id)), isProfilePrivate: true, updatedAt: new Date(Date.now() + 1000).toISOString() });
    await t.settle();
    expect(await feedIds(follower)).toEqual([]);
    expectError(await follower.get(`/api/sessions/${id}`), 404);
  });

  it('an unknown user is 404 on the profile list', async () => {
    const viewer = await t.user();
    expectError(await viewer.get(`/api/users/${randomUUID()}/sessions`), 404);
  });
});

async function snapshotOf(id: string) {
  const u = await personById(t.prisma, id);
  if (!u) throw new Error(`${id} is not in the people table`);
  const at = new Date().toISOString();
  return {
    id,
    email: `${id}@example.test`,
    username: u.username,
    displayName: u.displayName,
    bio: null,
    avatar: u.avatar,
    profilePicture: u.profilePicture,
    isProfilePrivate: u.isProfilePrivate,
    allowDirectMessages: true,
    showOnlineStatus: true,
    tokenVersion: 0,
    createdAt: at,
    updatedAt: at,
  };
}

describe('blocked users', () => {
  it('see nothing of each other: feed, detail 404, profile list 404', async () => {
    const [a, b] = [await t.user(), await t.user()];
    await t.befriend(a, b);
    const { id: sa } = await t.logSession(a, { title: 'A' });
    const { id: sb } = await t.logSession(b, { title: 'B' });
    expect(new Set(await feedIds(a))).toEqual(new Set([sa, sb]));
    await block(a, b);
    expect(await feedIds(a)).toEqual([sa]);
    expect(await feedIds(b)).toEqual([sb]);
    expect(await timeline(a)).toEqual([`${a.id}:${sa}`]);
    expect(await timeline(b)).toEqual([`${b.id}:${sb}`]);
    expectError(await a.get(`/api/sessions/${sb}`), 404);
    expectError(await b.get(`/api/sessions/${sa}`), 404);
    expectError(await a.get(`/api/users/${b.id}/sessions`), 404);
    expectError(await b.get(`/api/users/${a.id}/sessions`), 404);
    // Even after the feed is rebuilt from Postgres.
    await t.redis.del(t.timelines.key(a.id), t.timelines.key(b.id));
    expect(await feedIds(a)).toEqual([sa]);
    expect(await feedIds(b)).toEqual([sb]);
  });

  it("a blocked user's like, comment and reaction are left out of the other's counts and lists", async () => {
    const [author, viewer, blocked] = [await t.user(), await t.user(), await t.user()];
    const { id } = await t.logSession(author);
    ok(await viewer.post(`/api/sessions/${id}/like`));
    ok(await blocked.post(`/api/sessions/${id}/like`));
    ok(await viewer.post(`/api/sessions/${id}/comments`, { content: 'from viewer' }), 201);
    ok(await blocked.post(`/api/sessions/${id}/comments`, { content: 'from blocked' }), 201);
    ok(await blocked.post(`/api/sessions/${id}/react`, { emoji: '🍺' }), 201);
    ok(await viewer.post(`/api/sessions/${id}/react`, { emoji: '🍺' }), 201);
    await block(viewer, blocked);

    const seen = await card(viewer, id);
    expect(seen).toMatchObject({ likeCount: 1, commentCount: 1, isLikedByCurrentUser: true });
    expect(seen.likes.map((l) => l.userId)).toEqual([viewer.id]);
    expect(seen.comments.map((c) => c.content)).toEqual(['from viewer']);
    expect(seen.reactions).toEqual([{ emoji: '🍺', count: 1, users: [expect.objectContaining({ id: viewer.id })] }]);
    expect(ok<Array<{ userId: string }>>(await viewer.get(`/api/sessions/${id}/comments`)).map((c) => c.userId)).toEqual([viewer.id]);
    expect(ok<Array<{ count: number }>>(await viewer.get(`/api/sessions/${id}/reactions`))).toEqual([expect.objectContaining({ emoji: '🍺', count: 1 })]);
    expect(ok<PublicSession[]>(await viewer.get(`/api/users/${author.id}/sessions`))).toEqual([expect.objectContaining({ id, likesCount: 1 })]);
    // Like and unlike answer the count the viewer may see.
    expect(ok<{ likeCount: number }>(await viewer.delete(`/api/sessions/${id}/like`)).likeCount).toBe(0);

    // The author, who blocked nobody, still sees everyone.
    expect(await card(author, id)).toMatchObject({ likeCount: 1, commentCount: 2 });
    expect((await card(author, id)).reactions).toEqual([expect.objectContaining({ emoji: '🍺', count: 2 })]);
  });
});

describe('muting', () => {
  it("a muted friend's sessions leave the muter's feed, stay visible elsewhere, and come back on unmute", async () => {
    const [muter, muted] = [await t.user(), await t.user()];
    await t.befriend(muter, muted);
    const { id: old } = await t.logSession(muted, { title: 'before' });
    const { id: own } = await t.logSession(muter, { title: 'own' });
    expect(new Set(await feedIds(muter))).toEqual(new Set([old, own]));

    await t.publish('social.friend.muted.v1', { userId: muter.id, friendId: muted.id });
    await t.settle();
    expect(await feedIds(muter)).toEqual([own]);
    expect(await timeline(muter)).toEqual([`${muter.id}:${own}`]);
    const { id: during } = await t.logSession(muted, { title: 'while muted' });
    expect(await feedIds(muter)).toEqual([own]);
    expect(await feedIds(muter, '?filter=following')).toEqual([]);
    // Muting is one way, and the profile still shows everything.
    expect(new Set(await feedIds(muted))).toEqual(new Set([old, own, during]));
    ok(await muter.get(`/api/sessions/${during}`));
    expect(ok<PublicSession[]>(await muter.get(`/api/users/${muted.id}/sessions`))).toHaveLength(2);

    await t.publish('social.friend.unmuted.v1', { userId: muter.id, friendId: muted.id });
    await t.settle();
    expect(await t.prisma.$queryRawUnsafe('SELECT muted_id FROM mutes WHERE user_id = $1::uuid', muter.id)).toEqual([]);
    const { id: after } = await t.logSession(muted, { title: 'after' });
    expect((await feedIds(muter))[0]).toBe(after);
    // Rebuilt from Postgres, everything is back.
    await t.redis.del(t.timelines.key(muter.id));
    expect(await feedIds(muter)).toEqual([after, during, own, old]);
  });

  it("after unmute, the muted friend's earlier sessions come back to the feed", async () => {
    const [muter, muted] = [await t.user(), await t.user()];
    await t.befriend(muter, muted);
    const { id: old } = await t.logSession(muted);
    await t.publish('social.friend.muted.v1', { userId: muter.id, friendId: muted.id });
    await t.settle();
    expect(await feedIds(muter)).toEqual([]);
    await t.publish('social.friend.unmuted.v1', { userId: muter.id, friendId: muted.id });
    await t.settle();
    expect(await feedIds(muter)).toEqual([old]);
  });
});

describe('unfriending', () => {
  it('removes entries both ways', async () => {
    const [a, b, c] = [await t.user({ private: true }), await t.user({ private: true }), await t.user()];
    await t.befriend(a, b);
    await t.befriend(a, c);
    const { id: sa } = await t.logSession(a);
    const { id: sb } = await t.logSession(b);
    const { id: sc } = await t.logSession(c);
    expect(await feedIds(a)).toEqual([sc, sb, sa]);
    expect(await feedIds(b)).toEqual([sb, sa]);
    await t.publish('social.friendship.removed.v1', { userId: b.id, friendId: a.id });
    await t.settle();
    expect(await feedIds(a)).toEqual([sc, sa]);
    expect(await feedIds(b)).toEqual([sb]);
    expect((await timeline(a)).some((m) => m.startsWith(b.id))).toBe(false);
    expect((await timeline(b)).some((m) => m.startsWith(a.id))).toBe(false);
    expectError(await b.get(`/api/sessions/${sa}`), 404);
    // New sessions do not reach the former friend either.
    const { id: sa2 } = await t.logSession(a);
    expect(await feedIds(b)).toEqual([sb]);
    expect(await feedIds(c)).toEqual([sa2, sc, sa]);
  });

  it('a public former friend drops out of the feed too (no longer followed)', async () => {
    const [a, b] = [await t.user(), await t.user()];
    await t.befriend(a, b);
    const { id: sb } = await t.logSession(b);
    expect(await feedIds(a)).toEqual([sb]);
    await t.publish('social.friendship.removed.v1', { userId: a.id, friendId: b.id });
    await t.settle();
    expect(await feedIds(a)).toEqual([]);
    await t.redis.del(t.timelines.key(a.id));
    expect(await feedIds(a)).toEqual([]);
    ok(await a.get(`/api/sessions/${sb}`)); // still public on their profile
  });
});

describe('filters and per-viewer fields', () => {
  it('filter=following excludes own sessions, filter=mine only own; bad filter 400', async () => {
    const [me, friend] = [await t.user(), await t.user()];
    await t.befriend(me, friend);
    const { id: mine1 } = await t.logSession(me);
    const { id: theirs } = await t.logSession(friend);
    const { id: mine2 } = await t.logSession(me);
    expect(await feedIds(me)).toEqual([mine2, theirs, mine1]);
    expect(await feedIds(me, '?filter=all')).toEqual([mine2, theirs, mine1]);
    expect(await feedIds(me, '?filter=following')).toEqual([theirs]);
    expect(await feedIds(me, '?filter=mine')).toEqual([mine2, mine1]);
    expect(ok<FeedSession[]>(await me.get('/api/me/sessions')).map((s) => s.id)).toEqual([mine2, mine1]);
    expectError(await me.get('/api/sessions?filter=friends'), 400, { field: 'filter' });
    expectError(await me.get('/api/sessions?limit=51'), 400, { field: 'limit' });
    expectError(await me.get('/api/sessions?cursor=garbage'), 400, { field: 'cursor' });
  });

  it('isLikedByCurrentUser and counts are right for each viewer', async () => {
    const [author, a, b] = [await t.user(), await t.user(), await t.user()];
    await t.befriend(author, a);
    await t.befriend(author, b);
    const { id } = await t.logSession(author);
    ok(await a.post(`/api/sessions/${id}/like`));
    ok(await b.post(`/api/sessions/${id}/comments`, { content: 'nice' }), 201);
    const view = async (viewer: Client) => {
      const res = await viewer.get('/api/sessions');
      const s = (res.json() as FeedSession[]).find((x) => x.id === id);
      return s && { liked: s.isLikedByCurrentUser, likeCount: s.likeCount, commentCount: s.commentCount };
    };
    expect(await view(a)).toEqual({ liked: true, likeCount: 1, commentCount: 1 });
    expect(await view(b)).toEqual({ liked: false, likeCount: 1, commentCount: 1 });
    expect(await view(author)).toEqual({ liked: false, likeCount: 1, commentCount: 1 });
    ok(await author.post(`/api/sessions/${id}/like`));
    expect(await view(author)).toEqual({ liked: true, likeCount: 2, commentCount: 1 });
    expect(await view(b)).toEqual({ liked: false, likeCount: 2, commentCount: 1 });
  });
});
