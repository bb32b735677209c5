import { randomUUID } from 'node:crypto';
import { NEXT_CURSOR_HEADER, type FeedSession } from '@hoptrack/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedIds, ok, readFeeds } from './helpers';
import { startTestSessions, type Client, type TestSessions } from './support';

/**
 * Issue 41 item 5: a timeline in Redis only for someone who read their feed
 * in the activity window (the key's TTL), compact (a listpack of 32-byte
 * members at the cap), and rebuilt from Postgres on the first read after a
 * return or an eviction, showing the feed they would have had.
 */
let t: TestSessions;
beforeAll(async () => {
  t = await startTestSessions();
});
afterAll(() => t?.close());

const DAY = 24 * 3600;
const key = (user: Client) => t.timelines.key(user.id);
const block = async (blocker: Client, blocked: Client) => {
  await t.publish('social.user.blocked.v1', { blockerId: blocker.id, blockedId: blocked.id });
  await t.settle();
};
/** Polls until `check` holds (a TTL lapsing is Redis's doing, on its own clock). */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
/** Every page of the feed at `limit`, as the ids of each page. */
async function pages(viewer: Client, limit: number): Promise<string[][]> {
  const out: string[][] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 50; i++) {
    const res = await viewer.get(`/api/sessions?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    out.push(ok<FeedSession[]>(res).map((s) => s.id));
    const next = res.headers[NEXT_CURSOR_HEADER];
    if (typeof next !== 'string') return out;
    cursor = next;
  }
  throw new Error('pagination never ended');
}

describe('timelines for active people only', () => {
  it("an inactive person's timeline is gone and fan-out writes none; their next read rebuilds the same feed an active twin has", async () => {
    // Two viewers with the same friends: one stays active, one goes away.
    const [away, twin] = [await t.user(), await t.user()];
    const [open, hidden, muted, blocker] = [await t.user(), await t.user({ private: true }), await t.user(), await t.user()];
    for (const viewer of [away, twin]) for (const friend of [open, hidden, muted, blocker]) await t.befriend(viewer, friend);
    for (const viewer of [away, twin]) await t.publish('social.friend.muted.v1', { userId: viewer.id, friendId: muted.id });
    await t.settle();
    await t.logSession(open, { title: 'before' });
    await readFeeds(away, twin);
    expect(await t.redis.exists(key(away))).toBe(1);

    // Thirty days unread: the TTL lapses (here in a millisecond, on Redis's own clock).
    await t.redis.pexpire(key(away), 1);
    await until(async () => (await t.redis.exists(key(away))) === 0, 'the timeline expired');

    // Meanwhile the friends post, and one blocks both viewers: fan-out writes the twin's timeline only.
    const logged = [await t.logSession(open, { title: 'while away' }), await t.logSession(hidden, { title: 'private' }), await t.logSession(muted, { title: 'muted' })];
    await t.logSession(blocker, { title: 'then blocked' });
    for (const viewer of [away, twin]) await block(blocker, viewer);
    await t.settle();
    expect(await t.redis.exists(key(away))).toBe(0);
    expect((await t.timelines.members(twin.id)).some((m) => m.endsWith(`:${(logged[0] as { id: string }).id}`))).toBe(true);

    // Back: the first read rebuilds from Postgres, with the same privacy, mute and block rules.
    const expected = await pages(twin, 2);
    expect(expected.flat()).toEqual([(logged[1] as { id: string }).id, (logged[0] as { id: string }).id, expect.any(String)]);
    expect(await pages(away, 2)).toEqual(expected);
    expect(await t.redis.exists(key(away))).toBe(1);
    expect(await t.timelines.isComplete(away.id)).toBe(true);
    // Live again: fan-out writes it.
    const { id } = await t.logSession(open, { title: 'welcome back' });
    expect((await t.timelines.members(away.id)).at(-1)).toBe(`${open.id}:${id}`);
  });

  it('a read renews the TTL to the activity window, at most once a day', async () => {
    const viewer = await t.user();
    await readFeeds(viewer);
    const window = t.config.TIMELINE_ACTIVE_DAYS * DAY;
    expect(await t.redis.ttl(key(viewer))).toBeGreaterThan(window - 60);
    // Read an hour ago: this read writes nothing.
    await t.redis.expire(key(viewer), window - 3600);
    await readFeeds(viewer);
    expect(await t.redis.ttl(key(viewer))).toBeLessThanOrEqual(window - 3600);
    // Read two days ago: renewed.
    await t.redis.expire(key(viewer), window - 2 * DAY);
    await readFeeds(viewer);
    expect(await t.redis.ttl(key(viewer))).toBeGreaterThan(window - 60);
  });

  it('an active timeline at the cap is a listpack of at most 16 KB, stays one through fan-out and back-fill, and an evicted one is rebuilt with the same pages', async () => {
    const cap = t.config.TIMELINE_CAP;
    const [viewer, author, late] = [await t.user(), await t.user(), await t.user()];
    await t.befriend(viewer, author);
    // More sessions than the cap, written straight to Postgres (the API would take minutes), a minute apart.
    const now = Date.now();
    const rows = (n: number, userId: string, from: number) =>
      Array.from({ length: n }, (_, i) => ({ id: randomUUID(), userId, title: `s${i}`, beerCount: 1, duration: 30, createdAt: new Date(from - i * 60_000) }));
    await t.prisma.beerSession.createMany({ data: rows(cap + 30, author.id, now - 3_600_000) });
    await t.prisma.beerSession.createMany({ data: rows(cap, late.id, now - 1_800_000) });
    await readFeeds(viewer);
    const measure = async () => ({
      size: await t.timelines.size(viewer.id),
      encoding: await t.redis.call('OBJECT', 'ENCODING', key(viewer)),
      bytes: Number(await t.redis.call('MEMORY', 'USAGE', key(viewer), 'SAMPLES', '0')),
    });
    const rebuilt = await measure();
    expect(rebuilt).toMatchObject({ size: cap, encoding: 'listpack' });
    expect(rebuilt.bytes).toBeLessThanOrEqual(16 * 1024);

    // A fan-out write at the cap (ZADD, then the trim) and a back-fill of a cap's worth (a new friend) keep it a listpack.
    await t.logSession(author, { title: 'new' });
    await t.befriend(viewer, late);
    const after = await measure();
    expect(after).toMatchObject({ size: cap, encoding: 'listpack' });
    expect(after.bytes).toBeLessThanOrEqual(16 * 1024);
    console.log(`[figure] timeline at the cap (${cap} entries): ${rebuilt.bytes} B rebuilt, ${after.bytes} B after fan-out and back-fill (MEMORY USAGE, ${after.encoding})`);

    // Evicted (as allkeys-lru would): the next read rebuilds it, every page the same, the older ones from Postgres.
    const before = await pages(viewer, 50);
    expect(before.flat()).toHaveLength(2 * cap + 31);
    await t.redis.del(key(viewer));
    expect(await feedIds(viewer, '?limit=50')).toEqual(before[0]);
    expect(await t.timelines.size(viewer.id)).toBe(cap);
    expect(await pages(viewer, 50)).toEqual(before);
  });
});
