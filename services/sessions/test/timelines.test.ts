import { randomUUID } from 'node:crypto';
import { NEXT_CURSOR_HEADER, subjectFor, type FeedSession } from '@hoptrack/proto';
import { readEvents } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberOf, Timelines } from '../src/feed/timelines';
import { feedIds, ok, readFeeds } from './helpers';
import { startTestSessions, type Client, type TestSessions } from './support';

let t: TestSessions;
beforeAll(async () => {
  t = await startTestSessions();
});
afterAll(() => t?.close());

/** Timeline entries as `author:session`, without the marks. */
const timeline = (user: Client) => t.timelines.members(user.id);
const entriesOf = async (user: Client, sessionId: string) => (await timeline(user)).filter((m) => m.endsWith(`:${sessionId}`));
const users = async (n: number, options: { private?: boolean } = {}) => Promise.all(Array.from({ length: n }, () => t.user(options)));

/** Every page of the feed with `limit`, following x-next-cursor; `between` runs after each page. */
async function readAllPages(viewer: Client, limit: number, between: () => Promise<void> = async () => {}): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const res = await viewer.get(`/api/sessions?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    const sessions = ok<FeedSession[]>(res);
    expect(sessions.length).toBeLessThanOrEqual(limit);
    ids.push(...sessions.map((s) => s.id));
    const next = res.headers[NEXT_CURSOR_HEADER];
    if (typeof next !== 'string') return ids;
    cursor = next;
    await between();
  }
  throw new Error('pagination never ended');
}

describe('timelines in Redis', () => {
  it('a delete takes the session off every timeline', async () => {
    const author = await t.user();
    const friends = await users(4);
    for (const f of friends) await t.befriend(author, f);
    await readFeeds(author, ...friends);
    const { id: keep } = await t.logSession(author, { title: 'keep' });
    const { id } = await t.logSession(author, { title: 'gone' });
    for (const who of [author, ...friends]) expect(await entriesOf(who, id)).toEqual([`${author.id}:${id}`]);
    expect((await author.delete(`/api/sessions/${id}`)).statusCode).toBe(204);
    await t.settle();
    for (const who of [author, ...friends]) {
      expect(await entriesOf(who, id)).toEqual([]);
      expect(await entriesOf(who, keep)).toHaveLength(1);
      expect(await feedIds(who)).toEqual([keep]);
    }
  });

  it('the same session.created.v1 delivered twice yields one entry; a late redelivery after delete adds none', async () => {
    const [author, friend] = [await t.user(), await t.user()] as const;
    await t.befriend(author, friend);
    await readFeeds(author, friend);
    const { id } = await t.logSession(author);
    const [created] = (await readEvents(t.bus, 'SESSIONS', 'session.created.v1')).filter((e) => e.data.sessionId === id);
    if (!created) throw new Error('no session.created.v1 for the session');
    const redeliver = async () => {
      await t.bus.publish(subjectFor(t.bus.namespace, created.type), JSON.stringify(created), randomUUID());
      await t.settle();
    };
    await redeliver();
    for (const who of [author, friend]) expect(await entriesOf(who, id)).toEqual([`${author.id}:${id}`]);
    expect(await feedIds(friend)).toEqual([id]);
    expect(await t.redis.zscore(t.timelines.key(friend.id), memberOf({ authorId: author.id, sessionId: id }))).toBe(String(new Date(created.data.createdAt).getTime()));

    // Deleted, then the old event arrives again: the session must not come back.
    expect((await author.delete(`/api/sessions/${id}`)).statusCode).toBe(204);
    await t.settle();
    await redeliver();
    for (const who of [author, friend]) expect(await entriesOf(who, id)).toEqual([]);
    expect(await feedIds(friend)).toEqual([]);
  });

  it('after every timeline key is gone, feeds are rebuilt with the same content', async () => {
    const [a, b, c] = [await t.user(), await t.user(), await t.user()] as const;
    const priv = await t.user({ private: true });
    await t.befriend(a, b);
    await t.befriend(b, c);
    await t.befriend(priv, b);
    for (const [who, title] of [
      [a, 'a1'],
      [b, 'b1'],
      [c, 'c1'],
      [priv, 'p1'],
      [a, 'a2'],
    ] as const)
      await t.logSession(who, { title });
    ok(await c.post(`/api/sessions/${(await feedIds(c))[0]}/like`));
    const viewers = [a, b, c, priv];
    const before = await Promise.all(viewers.map(async (v) => ok<FeedSession[]>(await v.get('/api/sessions?limit=50'))));
    expect(before.map((f) => f.length)).toEqual([3, 5, 2, 2]);
    // FLUSHALL of the namespace's timelines (the BullMQ keys stay: the worker lives on).
    const keys = (await t.redis.keys(`${t.config.BUS_NAMESPACE}:*`)).filter((k) => !k.startsWith(`${t.config.BUS_NAMESPACE}:bull:`));
    expect(keys.length).toBeGreaterThanOrEqual(4);
    await t.redis.del(...keys);
    expect(await t.redis.exists(...viewers.map((v) => t.timelines.key(v.id)))).toBe(0);
    const after = await Promise.all(viewers.map(async (v) => ok<FeedSession[]>(await v.get('/api/sessions?limit=50'))));
    expect(after).toEqual(before);
    // And fan-out keeps the rebuilt timelines going.
    const { id } = await t.logSession(c, { title: 'c2' });
    expect((await feedIds(b))[0]).toBe(id);
    expect(await readAllPages(b, 2)).toEqual([id, ...before[1]!.map((s) => s.id)]);
  });

  it('pagination with limit=2 returns every session exactly once while new ones are logged between pages', async () => {
    const [author, viewer] = [await t.user(), await t.user()] as const;
    await t.befriend(author, viewer);
    const logged: string[] = [];
    for (let i = 0; i < 7; i++) logged.unshift((await t.logSession(i % 2 ? viewer : author, { title: `s${i}` })).id);
    const fresh: string[] = [];
    const seen = await readAllPages(viewer, 2, async () => {
      fresh.push((await t.logSession(author, { title: 'meanwhile' })).id);
    });
    expect(seen).toEqual(logged);
    expect(new Set(seen).size).toBe(seen.length);
    expect(fresh).toHaveLength(3);
    // The new ones are on top of the next first page.
    expect(await feedIds(viewer, '?limit=3')).toEqual([...fresh].reverse());
    // filter=mine and filter=following page the same way.
    expect(await pages(viewer, 'mine', 2)).toEqual(logged.filter((_, i) => (6 - i) % 2 === 1));
  });

  it('sessions created in the same millisecond are paged without loss or repeats', async () => {
    const [author, viewer] = [await t.user(), await t.user()] as const;
    await t.befriend(author, viewer);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await t.logSession(author, { title: `tie${i}` })).id);
    const at = new Date(Date.now() - 60_000);
    await t.prisma.beerSession.updateMany({ where: { id: { in: ids } }, data: { createdAt: at } });
    await t.redis.del(t.timelines.key(viewer.id));
    const seen = await readAllPages(viewer, 2);
    expect(seen).toEqual([...ids].sort().reverse());
    expect(await pages(viewer, 'mine', 2)).toEqual([]);
    expect(await pages(author, 'mine', 2)).toEqual([...ids].sort().reverse());
  });

  it('an author with many followers reaches all of them (FANOUT_BATCH 3)', async () => {
    expect(t.config.FANOUT_BATCH).toBe(3);
    const author = await t.user({ private: true });
    const friends = await users(10);
    for (const f of friends) await t.befriend(author, f);
    await readFeeds(...friends);
    const { id } = await t.logSession(author);
    for (const f of friends) expect(await entriesOf(f, id), f.id).toEqual([`${author.id}:${id}`]);
    for (const f of friends.slice(0, 3)) expect(await feedIds(f)).toEqual([id]);
    // And the retraction reaches every one of them too.
    expect((await author.delete(`/api/sessions/${id}`)).statusCode).toBe(204);
    await t.settle();
    for (const f of friends) expect(await entriesOf(f, id), f.id).toEqual([]);
  });

  it("fan-out's write: on every live timeline of the batch a ZADD and a trim to the cap (+1 for the completeness mark), its TTL left alone; none for an absent one; Redis refusing it fails the call", async () => {
    const cap = 3;
    const timelines = new Timelines(t.redis, `${t.config.BUS_NAMESPACE}:cap-test`, { cap, activeDays: 30 });
    const [live, absent, author] = [randomUUID(), randomUUID(), randomUUID()];
    const sessions = Array.from({ length: 6 }, () => randomUUID());
    await timelines.rebuild(live, async () => []);
    await t.redis.expire(timelines.key(live), 1000);
    for (const [i, sessionId] of sessions.entries()) await timelines.add([live, absent], { sessionId, authorId: author, score: i + 1 });
    // The newest cap entries stay, and the completeness mark (+inf).
    expect(await timelines.members(live)).toEqual(sessions.slice(3).map((id) => `${author}:${id}`));
    expect(await timelines.isComplete(live)).toBe(true);
    expect(await t.redis.zscore(timelines.key(live), memberOf({ authorId: author, sessionId: sessions[5] as string }))).toBe('6');
    // Writing does not keep a timeline alive: only reading does.
    expect(await t.redis.ttl(timelines.key(live))).toBeLessThanOrEqual(1000);
    expect(await t.redis.exists(timelines.key(absent))).toBe(0);
    // A key that is not a sorted set: the write rejects (the job fails and is retried), it is not swallowed.
    const broken = randomUUID();
    await t.redis.set(timelines.key(broken), 'not a timeline');
    await expect(timelines.add([live, broken], { sessionId: randomUUID(), authorId: author, score: 7 })).rejects.toThrow(/WRONGTYPE/);
  });

  it('a new friendship back-fills recent sessions both ways', async () => {
    const [a, b] = [await t.user({ private: true }), await t.user({ private: true })];
    const a1 = (await t.logSession(a, { title: 'a1' })).id;
    const b1 = (await t.logSession(b, { title: 'b1' })).id;
    const a2 = (await t.logSession(a, { title: 'a2' })).id;
    expect(await feedIds(a)).toEqual([a2, a1]);
    expect(await feedIds(b)).toEqual([b1]);
    await t.befriend(a, b);
    expect(await timeline(a)).toHaveLength(3);
    expect(await timeline(b)).toHaveLength(3);
    expect(await feedIds(a)).toEqual([a2, b1, a1]);
    expect(await feedIds(b)).toEqual([a2, b1, a1]);
  });
});

async function pages(viewer: Client, filter: 'mine' | 'following', limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 50; i++) {
    const res = await viewer.get(`/api/sessions?filter=${filter}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    ids.push(...ok<FeedSession[]>(res).map((s) => s.id));
    const next = res.headers[NEXT_CURSOR_HEADER];
    if (typeof next !== 'string') return ids;
    cursor = next;
  }
  throw new Error('pagination never ended');
}
