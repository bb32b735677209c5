import { randomUUID } from 'node:crypto';
import { REACTION_EMOJIS, type FeedSession, type LikeResponse, type ReactionSummary, type SessionComment, type SessionLike } from '@hoptrack/proto';
import { readEvents } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, ok } from './helpers';
import { startTestSessions, type Client, type TestSessions } from './support';

let t: TestSessions;
beforeAll(async () => {
  t = await startTestSessions();
});
afterAll(() => t?.close());

const card = async (viewer: Client, id: string) => ok<FeedSession>(await viewer.get(`/api/sessions/${id}`));
const block = async (blocker: Client, blocked: Client) => {
  await t.publish('social.user.blocked.v1', { blockerId: blocker.id, blockedId: blocked.id });
  await t.settle();
};

describe('likes', () => {
  it('liking twice keeps one like; unliking removes it; both idempotent', async () => {
    const [author, fan] = [await t.user(), await t.user()];
    const { id } = await t.logSession(author);
    expect(ok<LikeResponse>(await fan.post(`/api/sessions/${id}/like`))).toEqual({ liked: true, likeCount: 1 });
    expect(ok<LikeResponse>(await fan.post(`/api/sessions/${id}/like`))).toEqual({ liked: true, likeCount: 1 });
    expect(await t.prisma.like.count({ where: { sessionId: id } })).toBe(1);
    expect(await card(fan, id)).toMatchObject({ likeCount: 1, isLikedByCurrentUser: true, likes: [{ userId: fan.id, user: { id: fan.id } }] });
    expect(await card(author, id)).toMatchObject({ likeCount: 1, isLikedByCurrentUser: false });
    expect(ok<LikeResponse>(await author.post(`/api/sessions/${id}/like`))).toEqual({ liked: true, likeCount: 2 });
    expect(ok<LikeResponse>(await fan.delete(`/api/sessions/${id}/like`))).toEqual({ liked: false, likeCount: 1 });
    expect(ok<LikeResponse>(await fan.delete(`/api/sessions/${id}/like`))).toEqual({ liked: false, likeCount: 1 });
    expect(await card(fan, id)).toMatchObject({ likeCount: 1, isLikedByCurrentUser: false, likes: [{ userId: author.id }] });
  });

  it('newest like first in the card', async () => {
    const [author, a, b] = [await t.user(), await t.user(), await t.user()];
    const { id } = await t.logSession(author);
    ok(await a.post(`/api/sessions/${id}/like`));
    await new Promise((r) => setTimeout(r, 5));
    ok(await b.post(`/api/sessions/${id}/like`));
    expect((await card(author, id)).likes.map((l) => l.userId)).toEqual([b.id, a.id]);
  });

  it('an unknown session is 404, a malformed id 400', async () => {
    const u = await t.user();
    expectError(await u.post(`/api/sessions/${randomUUID()}/like`), 404);
    expectError(await u.post('/api/sessions/nope/like'), 400, { field: 'id' });
  });

  it('the full list (GET /likes) refuses bad paging, hides the session from whoever cannot see it, and leaves out people blocked either way', async () => {
    const [author, fan, blocker, blocked, stranger] = [await t.user(), await t.user(), await t.user(), await t.user(), await t.user({ private: true })];
    const { id } = await t.logSession(author);
    for (const who of [fan, blocker, blocked]) ok(await who.post(`/api/sessions/${id}/like`));
    expectError(await author.get(`/api/sessions/${id}/likes?limit=0`), 400, { field: 'limit' });
    expectError(await author.get(`/api/sessions/${id}/likes?limit=101`), 400, { field: 'limit' });
    expectError(await author.get(`/api/sessions/${id}/likes?limit=abc`), 400, { field: 'limit' });
    expectError(await author.get(`/api/sessions/${id}/likes?cursor=nonsense`), 400, { field: 'cursor' });
    expectError(await author.get(`/api/sessions/${id}/likes?cursor=99999999999999999_${randomUUID()}`), 400, { field: 'cursor' });
    expectError(await author.get('/api/sessions/nope/likes'), 400, { field: 'id' });
    expectError(await author.get(`/api/sessions/${randomUUID()}/likes`), 404);
    // A private author's session is not there for a stranger (their likers neither).
    const hidden = await t.logSession(stranger);
    expectError(await author.get(`/api/sessions/${hidden.id}/likes`), 404);

    await block(blocker, author);
    await block(author, blocked);
    const likers = ok<SessionLike[]>(await author.get(`/api/sessions/${id}/likes`)).map((l) => l.userId);
    expect(likers).toEqual([fan.id]);
    expect((await card(author, id)).likeCount).toBe(1);
    // A third party still sees all three.
    expect(ok<SessionLike[]>(await fan.get(`/api/sessions/${id}/likes`)).map((l) => l.userId).sort()).toEqual([fan.id, blocker.id, blocked.id].sort());
  });
});

describe('comments', () => {
  it('are trimmed and listed oldest first with their author; commentCount follows', async () => {
    const [author, a, b] = [await t.user({ displayName: 'Author' }), await t.user({ displayName: 'Alice' }), await t.user({ displayName: 'Bob' })];
    const { id } = await t.logSession(author);
    const first = ok<SessionComment>(await a.post(`/api/sessions/${id}/comments`, { content: '  Cheers!  ' }), 201);
    expect(first).toMatchObject({ sessionId: id, userId: a.id, content: 'Cheers!', user: { id: a.id, displayName: 'Alice' } });
    await new Promise((r) => setTimeout(r, 5));
    ok(await b.post(`/api/sessions/${id}/comments`, { content: 'Second' }), 201);
    await new Promise((r) => setTimeout(r, 5));
    ok(await a.post(`/api/sessions/${id}/comments`, { content: 'Third' }), 201);
    const list = ok<SessionComment[]>(await author.get(`/api/sessions/${id}/comments`));
    expect(list.map((c) => [c.content, c.user.displayName])).toEqual([
      ['Cheers!', 'Alice'],
      ['Second', 'Bob'],
      ['Third', 'Alice'],
    ]);
    const seen = await card(author, id);
    expect(seen.commentCount).toBe(3);
    expect(seen.comments.map((c) => c.content)).toEqual(['Cheers!', 'Second', 'Third']);
  });

  it('empty, whitespace-only or over 500 characters is 400 and stores nothing', async () => {
    const [author, a] = [await t.user(), await t.user()];
    const { id } = await t.logSession(author);
    expectError(await a.post(`/api/sessions/${id}/comments`, { content: '' }), 400, { field: 'content' });
    expectError(await a.post(`/api/sessions/${id}/comments`, { content: ' \n\t ' }), 400, { field: 'content' });
    expectError(await a.post(`/api/sessions/${id}/comments`, { content: 'x'.repeat(501) }), 400, { field: 'content' });
    expectError(await a.post(`/api/sessions/${id}/comments`, {}), 400, { field: 'content' });
    expect(await t.prisma.comment.count({ where: { sessionId: id } })).toBe(0);
    ok(await a.post(`/api/sessions/${id}/comments`, { content: 'x'.repeat(500) }), 201);
  });

  it('may be deleted by their author or the session owner; anyone else gets 403', async () => {
    const [author, a, other] = [await t.user(), await t.user(), await t.user()];
    const { id } = await t.logSession(author);
    const c1 = ok<SessionComment>(await a.post(`/api/sessions/${id}/comments`, { content: 'one' }), 201);
    const c2 = ok<SessionComment>(await a.post(`/api/sessions/${id}/comments`, { content: 'two' }), 201);
    const c3 = ok<SessionComment>(await author.post(`/api/sessions/${id}/comments`, { content: 'three' }), 201);
    expectError(await other.delete(`/api/sessions/${id}/comments/${c1.id}`), 403);
    expectError(await a.delete(`/api/sessions/${id}/comments/${c3.id}`), 403);
    expect((await a.delete(`/api/sessions/${id}/comments/${c1.id}`)).statusCode).toBe(204);
    expect((await author.delete(`/api/sessions/${id}/comments/${c2.id}`)).statusCode).toBe(204);
    expectError(await a.delete(`/api/sessions/${id}/comments/${c1.id}`), 404);
    expectError(await author.delete(`/api/sessions/${id}/comments/${randomUUID()}`), 404);
    expect(ok<SessionComment[]>(await other.get(`/api/sessions/${id}/comments`)).map((c) => c.id)).toEqual([c3.id]);
    // A comment id from another session does not resolve under this one.
    const { id: otherSession } = await t.logSession(other);
    expectError(await other.delete(`/api/sessions/${otherSession}/comments/${c3.id}`), 404);
    expect(await t.prisma.comment.count({ where: { id: c3.id } })).toBe(1);
  });

  it('may be edited by their author only: the new text, editedAt, in the list and on the card; same rules as a new one', async () => {
    const [author, a, other] = [await t.user(), await t.user(), await t.user()];
    const { id } = await t.logSession(author);
    const mine = ok<SessionComment>(await a.post(`/api/sessions/${id}/comments`, { content: 'frist' }), 201);
    expect(mine.editedAt).toBeNull();
    expect((await card(other, id)).comments[0]).toMatchObject({ content: 'frist', editedAt: null });
    const url = `/api/sessions/${id}/comments/${mine.id}`;

    // Bad bodies name the field and change nothing.
    expectError(await a.patch(url, { content: '' }), 400, { field: 'content' });
    expectError(await a.patch(url, { content: ' \n ' }), 400, { field: 'content' });
    expectError(await a.patch(url, { content: 'x'.repeat(501) }), 400, { field: 'content' });
    expectError(await a.patch(url, {}), 400, { field: 'content' });
    expectError(await a.patch(`/api/sessions/${id}/comments/nope`, { content: 'x' }), 400, { field: 'commentId' });
    // Nobody else's words: not the session's owner, not a stranger.
    expectError(await author.patch(url, { content: 'owner was here' }), 403);
    expectError(await other.patch(url, { content: 'other was here' }), 403);
    // Unknown comment, unknown session, a comment under another session.
    expectError(await a.patch(`/api/sessions/${id}/comments/${randomUUID()}`, { content: 'x' }), 404);
    expectError(await a.patch(`/api/sessions/${randomUUID()}/comments/${mine.id}`, { content: 'x' }), 404);
    const { id: elsewhere } = await t.logSession(other);
    expectError(await a.patch(`/api/sessions/${elsewhere}/comments/${mine.id}`, { content: 'x' }), 404);
    expect(await t.prisma.comment.findUnique({ where: { id: mine.id } })).toMatchObject({ content: 'frist', editedAt: null });

    const edited = ok<SessionComment>(await a.patch(url, { content: '  first  ' }));
    expect(edited).toMatchObject({ id: mine.id, userId: a.id, content: 'first', createdAt: mine.createdAt, user: { id: a.id } });
    expect(Date.parse(edited.editedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(mine.createdAt));
    expect(ok<SessionComment[]>(await other.get(`/api/sessions/${id}/comments`))).toEqual([{ ...edited }]);
    // The card read model dropped the stale card.
    expect((await card(other, id)).comments[0]).toMatchObject({ id: mine.id, content: 'first', editedAt: edited.editedAt });
    ok(await a.patch(url, { content: 'x'.repeat(500) }));
    // The edit's event, for the card read model's safety net.
    await t.settle();
    const events = await readEvents(t.bus, 'SESSIONS', 'session.comment.edited.v1');
    expect(events.map((e) => e.data)).toContainEqual({ sessionId: id, ownerId: author.id, userId: a.id, commentId: mine.id, content: 'first' });
  });
});

describe('reactions', () => {
  it('accepts each of the 18 emojis, once per user and emoji, and sums them up', async () => {
    const [author, a, b] = [await t.user(), await t.user({ displayName: 'Ann' }), await t.user({ displayName: 'Ben' })];
    const { id } = await t.logSession(author);
    expect(REACTION_EMOJIS).toHaveLength(18);
    for (const emoji of REACTION_EMOJIS) {
      const res = await a.post(`/api/sessions/${id}/react`, { emoji });
      expect(res.statusCode, `${emoji}: ${res.body}`).toBe(201);
    }
    const again = ok<ReactionSummary[]>(await a.post(`/api/sessions/${id}/react`, { emoji: '🍺' }), 201);
    expect(again.find((r) => r.emoji === '🍺')?.count).toBe(1);
    ok(await b.post(`/api/sessions/${id}/react`, { emoji: '🍺' }), 201);
    const summary = ok<ReactionSummary[]>(await author.get(`/api/sessions/${id}/reactions`));
    expect(summary).toHaveLength(18);
    expect(new Set(summary.map((r) => r.emoji))).toEqual(new Set(REACTION_EMOJIS));
    expect(summary[0]).toEqual({ emoji: '🍺', count: 2, users: [{ id: a.id, displayName: 'Ann' }, { id: b.id, displayName: 'Ben' }] });
    expect(summary.filter((r) => r.emoji !== '🍺').every((r) => r.count === 1 && r.users.length === 1 && r.users[0]?.id === a.id)).toBe(true);
    expect(await t.prisma.reaction.count({ where: { sessionId: id } })).toBe(19);
    expect((await card(author, id)).reactions).toEqual(summary);
  });

  it('removing a reaction leaves the others', async () => {
    const [author, a] = [await t.user(), await t.user()];
    const { id } = await t.logSession(author);
    ok(await a.post(`/api/sessions/${id}/react`, { emoji: '🔥' }), 201);
    ok(await a.post(`/api/sessions/${id}/react`, { emoji: '💯' }), 201);
    const after = ok<ReactionSummary[]>(await a.delete(`/api/sessions/${id}/react`, { emoji: '🔥' }));
    expect(after.map((r) => r.emoji)).toEqual(['💯']);
  });

  it.each([
    ['an emoji not in the set', '🍕'],
    ['plain text', 'beer'],
    ['an 11-character string', 'abcdefghijk'],
    ['an empty string', ''],
  ])('%s is 400', async (_name, emoji) => {
    const [author, a] = [await t.user(), await t.user()];
    const { id } = await t.logSession(author);
    expectError(await a.post(`/api/sessions/${id}/react`, { emoji }), 400, { field: 'emoji' });
    expect(await t.prisma.reaction.count({ where: { sessionId: id } })).toBe(0);
  });
});

describe('nobody acts on a session they cannot see', () => {
  const everyAction = async (actor: Client, id: string) => [
    (await actor.post(`/api/sessions/${id}/like`)).statusCode,
    (await actor.delete(`/api/sessions/${id}/like`)).statusCode,
    (await actor.post(`/api/sessions/${id}/comments`, { content: 'hi' })).statusCode,
    (await actor.get(`/api/sessions/${id}/comments`)).statusCode,
    (await actor.post(`/api/sessions/${id}/react`, { emoji: '🍺' })).statusCode,
    (await actor.get(`/api/sessions/${id}/reactions`)).statusCode,
    (await actor.get(`/api/sessions/${id}`)).statusCode,
  ];
  const nothingStored = async (id: string) => {
    expect(await t.prisma.like.count({ where: { sessionId: id } })).toBe(0);
    expect(await t.prisma.comment.count({ where: { sessionId: id } })).toBe(0);
    expect(await t.prisma.reaction.count({ where: { sessionId: id } })).toBe(0);
  };

  it("a private author's session: a stranger gets 404 everywhere, a friend may act", async () => {
    const [author, friend, stranger] = [await t.user({ private: true }), await t.user(), await t.user()];
    await t.befriend(author, friend);
    const { id } = await t.logSession(author);
    expect(await everyAction(stranger, id)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    await nothingStored(id);
    expect(ok<LikeResponse>(await friend.post(`/api/sessions/${id}/like`))).toEqual({ liked: true, likeCount: 1 });
  });

  it('blocked either way: 404 everywhere', async () => {
    const [author, blocker, blocked] = [await t.user(), await t.user(), await t.user()];
    const { id } = await t.logSession(author);
    await block(blocker, author);
    await block(author, blocked);
    expect(await everyAction(blocker, id)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    expect(await everyAction(blocked, id)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    await nothingStored(id);
  });

  it('after an unblock, the public session can be liked again', async () => {
    const [author, other] = [await t.user(), await t.user()];
    const { id } = await t.logSession(author);
    await block(author, other);
    expectError(await other.post(`/api/sessions/${id}/like`), 404);
    await t.publish('social.user.unblocked.v1', { blockerId: author.id, blockedId: other.id });
    await t.settle();
    expect(ok<LikeResponse>(await other.post(`/api/sessions/${id}/like`))).toEqual({ liked: true, likeCount: 1 });
  });
});
