import { randomUUID } from 'node:crypto';
import { NEXT_CURSOR_HEADER, type FeedSession, type SessionComment, type SessionLike } from '@hoptrack/proto';
import { createMetrics, createTokenService, DEV_SIGNING_KEY, Outbox } from '@hoptrack/runtime';
import { eventually, memoryLogger, testUserSnapshot } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSessionsApp } from '../src/app';
import { ok } from './helpers';
import { startTestSessions, type Client, type TestSessions } from './support';

/**
 * The card read model (issue 21): a feed page is a timeline range, the shared
 * cards from Redis and one statement for what is the viewer's own; cards carry
 * what a card shows, the full lists are their own calls; every change to a
 * card — by the API, by an event only, by a person's new name — shows on the
 * next read.
 */

let t: TestSessions;
beforeAll(async () => {
  // No background polling: what a page sends to Postgres is all there is to count.
  t = await startTestSessions({ OUTBOX_POLL_MS: '600000' });
});
afterAll(() => t?.close());

const feed = async (viewer: Client) => ok<FeedSession[]>(await viewer.get('/api/sessions?limit=20'));
const cardIn = async (viewer: Client, id: string) => {
  const found = (await feed(viewer)).find((s) => s.id === id);
  if (!found) throw new Error(`session ${id} not in the feed`);
  return found;
};
const tick = () => new Promise((r) => setTimeout(r, 3)); // distinct created_at for ordering

/** An author with a friend who reads the feed, and `n` more friends of the author. */
async function circle(n: number) {
  const author = await t.user({ displayName: 'Author' });
  const reader = await t.user({ displayName: 'Reader' });
  await t.befriend(author, reader);
  const others: Client[] = [];
  for (let i = 0; i < n; i += 1) {
    const other = await t.user({ displayName: `Friend ${i}` });
    await t.befriend(author, other);
    others.push(other);
  }
  return { author, reader, others };
}

describe('a feed page', () => {
  it('costs one SQL statement once its cards are warm, whatever the number of cards, likes and comments', async () => {
    const { author, reader, others } = await circle(4);
    for (let i = 0; i < 6; i += 1) {
      const { id } = await t.logSession(author, { title: `Session ${i}` });
      for (const other of others) {
        ok(await other.post(`/api/sessions/${id}/like`));
        ok(await other.post(`/api/sessions/${id}/comments`, { content: `Cheers ${i}` }), 201);
        ok(await other.post(`/api/sessions/${id}/react`, { emoji: '🍺' }), 201);
      }
    }
    await t.settle();
    const cold = await t.statementsOf(() => feed(reader));
    // Cold: the cards were rebuilt from Postgres (a fixed number of statements, not one per card).
    expect(cold.length).toBeGreaterThan(1);
    expect(cold.length).toBeLessThanOrEqual(6);
    const warm = await t.statementsOf(async () => expect(await feed(reader)).toHaveLength(6));
    expect(warm, warm.join('\n---\n')).toHaveLength(1);
    expect(warm[0]).toMatch(/'seen' AS kind/);
  });

  it('carries three likers, the three newest comments and the counts; the full lists are their own calls', async () => {
    const { author, reader, others } = await circle(5);
    const { id } = await t.logSession(author);
    for (const [i, other] of others.entries()) {
      ok(await other.post(`/api/sessions/${id}/like`));
      ok(await other.post(`/api/sessions/${id}/comments`, { content: `Comment ${i}` }), 201);
      await tick();
    }
    const card = await cardIn(reader, id);
    expect(card.likeCount).toBe(5);
    expect(card.likes.map((l) => l.userId)).toEqual([others[4]?.id, others[3]?.id, others[2]?.id]);
    expect(card.likes[0]?.user.displayName).toBe('Friend 4');
    expect(card.commentCount).toBe(5);
    expect(card.comments.map((c) => c.content)).toEqual(['Comment 2', 'Comment 3', 'Comment 4']);

    const all = ok<SessionComment[]>(await reader.get(`/api/sessions/${id}/comments`));
    expect(all.map((c) => c.content)).toEqual(['Comment 0', 'Comment 1', 'Comment 2', 'Comment 3', 'Comment 4']);

    // Likes page by page, newest first, each once.
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page += 1) {
      const res = await reader.get(`/api/sessions/${id}/likes?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      const likes = ok<SessionLike[]>(res);
      seen.push(...likes.map((l) => l.userId));
      cursor = res.headers[NEXT_CURSOR_HEADER] as string | undefined;
      if (!cursor) break;
    }
    expect(seen).toEqual([...others].reverse().map((o) => o.id));
    expect(ok<SessionLike[]>(await reader.get(`/api/sessions/${id}/likes`))[0]).toMatchObject({ userId: others[4]?.id, user: { displayName: 'Friend 4' } });
  });

  it('names up to three people per reaction, and always the viewer when they chose it', async () => {
    const { author, reader, others } = await circle(4);
    const { id } = await t.logSession(author);
    for (const other of others) ok(await other.post(`/api/sessions/${id}/react`, { emoji: '🍻' }), 201);
    ok(await reader.post(`/api/sessions/${id}/react`, { emoji: '🍻' }), 201);
    ok(await reader.post(`/api/sessions/${id}/react`, { emoji: '🔥' }), 201);
    const card = await cardIn(reader, id);
    const beers = card.reactions.find((r) => r.emoji === '🍻');
    expect(beers?.count).toBe(5);
    expect(beers?.users.map((u) => u.id)).toEqual([reader.id, others[0]?.id, others[1]?.id, others[2]?.id]);
    expect(card.reactions.map((r) => r.emoji)).toEqual(['🍻', '🔥']);
    // The author did not react: three named, the count has the rest.
    const authorsView = await cardIn(author, id);
    expect(authorsView.reactions.find((r) => r.emoji === '🍻')?.users).toHaveLength(3);
  });
});

describe('keeping cards current', () => {
  it('a like, comment, reaction or edit through the API shows on the very next read', async () => {
    const { author, reader, others } = await circle(1);
    const fan = others[0] as Client;
    const { id } = await t.logSession(author, { title: 'Before' });
    expect(await cardIn(reader, id)).toMatchObject({ likeCount: 0, commentCount: 0, reactions: [] });
    ok(await fan.post(`/api/sessions/${id}/like`));
    expect(await cardIn(reader, id)).toMatchObject({ likeCount: 1, likes: [{ userId: fan.id }] });
    ok(await fan.post(`/api/sessions/${id}/comments`, { content: 'Nice' }), 201);
    expect(await cardIn(reader, id)).toMatchObject({ commentCount: 1, comments: [{ content: 'Nice' }] });
    ok(await fan.post(`/api/sessions/${id}/react`, { emoji: '🎉' }), 201);
    expect((await cardIn(reader, id)).reactions).toEqual([{ emoji: '🎉', count: 1, users: [{ id: fan.id, displayName: 'Friend 0' }] }]);
    ok(await author.form('PUT', `/api/sessions/${id}`, { title: 'After' }));
    expect((await cardIn(reader, id)).title).toBe('After');
    ok(await fan.delete(`/api/sessions/${id}/like`));
    expect(await cardIn(reader, id)).toMatchObject({ likeCount: 0, likes: [] });
  });

  it('another replica, holding the card in its own memory, shows a change made through this one on its very next read', async () => {
    const { author, reader, others } = await circle(1);
    const fan = others[0] as Client;
    const { id } = await t.logSession(author, { title: 'Two replicas' });
    const replica = buildSessionsApp({ ...t, logger: memoryLogger('sessions-replica').logger, metrics: createMetrics('sessions') });
    await replica.app.ready();
    try {
      const tokens = await createTokenService({ keys: [DEV_SIGNING_KEY], expiresIn: '1h' });
      const authorization = `Bearer ${await tokens.sign({ userId: reader.id, tokenVersion: 0 })}`;
      const readThere = async () => {
        const res = await replica.app.inject({ method: 'GET', url: '/api/sessions?limit=20', headers: { authorization } });
        const card = ok<FeedSession[]>(res).find((s) => s.id === id);
        if (!card) throw new Error(`session ${id} not in the replica's feed`);
        return card;
      };
      expect(await readThere()).toMatchObject({ likeCount: 0 });
      expect(await readThere()).toMatchObject({ likeCount: 0 }); // now from the replica's memory
      expect(replica.cardStore.stats.memoryHits).toBeGreaterThan(0);
      ok(await fan.post(`/api/sessions/${id}/like`));
      expect(await readThere()).toMatchObject({ likeCount: 1, likes: [{ userId: fan.id }] });
      ok(await fan.delete(`/api/sessions/${id}/like`));
      expect(await readThere()).toMatchObject({ likeCount: 0, likes: [] });
    } finally {
      await replica.app.close();
    }
  });

  it("a change whose own invalidation never ran is dropped from the card by its event", async () => {
    const { author, reader, others } = await circle(1);
    const fan = others[0] as Client;
    const { id } = await t.logSession(author);
    expect((await cardIn(reader, id)).likeCount).toBe(0); // the card is now in Redis
    // The like and its event commit as the API commits them, but the call that drops the card is lost.
    await t.prisma.$transaction(async (tx) => {
      await tx.like.create({ data: { sessionId: id, userId: fan.id } });
      await new Outbox(t.config.BUS_NAMESPACE).enqueue(tx, 'session.liked.v1', { sessionId: id, ownerId: author.id, userId: fan.id });
    });
    expect((await cardIn(reader, id)).likeCount).toBe(0); // stale until the event arrives: this is what the consumer fixes
    await t.relay.drain();
    await eventually(async () => (await cardIn(reader, id)).likeCount === 1, 'card rebuilt after session.liked.v1');
  });

  it("a person's new name and picture show on the cards that name them", async () => {
    const { author, reader, others } = await circle(1);
    const fan = others[0] as Client;
    const { id } = await t.logSession(author);
    ok(await fan.post(`/api/sessions/${id}/like`));
    expect((await cardIn(reader, id)).likes[0]?.user.displayName).toBe('Friend 0');
    const renamed = {
      ...testUserSnapshot(fan.id),
      displayName: 'Renamed Fan',
      profilePicture: '/files/pictures/new.webp',
      updatedAt: new Date(Date.now() + 1000).toISOString(),
    };
    await t.publish('user.updated.v1', { ...renamed, isProfilePrivate: false });
    await t.settle();
    expect((await cardIn(reader, id)).likes[0]?.user).toMatchObject({ displayName: 'Renamed Fan', profilePicture: '/files/pictures/new.webp' });
  });

  it('a deleted session leaves every feed and its detail is 404', async () => {
    const { author, reader } = await circle(0);
    const { id } = await t.logSession(author);
    await cardIn(reader, id);
    expect((await author.delete(`/api/sessions/${id}`)).statusCode).toBe(204);
    expect((await feed(reader)).map((s) => s.id)).not.toContain(id);
    expect((await reader.get(`/api/sessions/${id}`)).statusCode).toBe(404);
    expect((await reader.get(`/api/sessions/${randomUUID()}`)).statusCode).toBe(404);
  });
});
