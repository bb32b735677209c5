import { randomUUID } from 'node:crypto';
import type { FeedFilter } from '@hoptrack/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedRepository, type FeedPlan, type FeedRow } from '../src/repositories/feed.repository';
import { startTestSessions, type Client, type TestSessions } from './support';

/**
 * The feed's two plans (FeedPlan): a rebuild reads per author, a page down
 * the creation-time index. They must answer the same rows for every viewer,
 * filter, page size and cursor, ties in creation time included, and both
 * must be the feed's rules: what the viewer may see, less whom they muted.
 */
let t: TestSessions;
beforeAll(async () => {
  t = await startTestSessions();
});
afterAll(() => t?.close());

type Cast = Record<'viewer' | 'friend' | 'privateFriend' | 'privateRequested' | 'publicRequested' | 'muted' | 'blocker' | 'stranger', Client>;

async function cast(): Promise<Cast> {
  const [viewer, friend, privateFriend, privateRequested, publicRequested, muted, blocker, stranger] = [
    await t.user(),
    await t.user(),
    await t.user({ private: true }),
    await t.user({ private: true }),
    await t.user(),
    await t.user(),
    await t.user(),
    await t.user(),
  ];
  for (const other of [friend, privateFriend, muted, blocker]) await t.befriend(viewer, other);
  // A pending request follows: a public author's sessions reach the requester, a private one's do not.
  for (const author of [privateRequested, publicRequested]) {
    await t.publish('social.friendship.requested.v1', { friendshipId: randomUUID(), requesterId: viewer.id, recipientId: author.id });
  }
  await t.publish('social.friend.muted.v1', { userId: viewer.id, friendId: muted.id });
  await t.publish('social.user.blocked.v1', { blockerId: blocker.id, blockedId: viewer.id });
  await t.settle();
  return { viewer, friend, privateFriend, privateRequested, publicRequested, muted, blocker, stranger };
}

/** `count` sessions by each, written straight into Postgres an hour apart, every third pair sharing its creation time. */
async function sessionsBy(people: Client[], count: number): Promise<Map<string, string[]>> {
  const byAuthor = new Map<string, string[]>();
  const start = Date.now() - 30 * 24 * 3600_000;
  let n = 0;
  for (let i = 0; i < count; i++) {
    for (const person of people) {
      const id = randomUUID();
      // Interleaved authors; ties across authors (the id orders them) every third step.
      const at = new Date(start + (n % 3 === 0 ? n - 1 : n) * 3600_000);
      n++;
      await t.prisma.$executeRaw`INSERT INTO beer_sessions (id, user_id, title, beer_count, duration, created_at, updated_at) VALUES (${id}::uuid, ${person.id}::uuid, 'plan', 1, 30, ${at}, ${at})`;
      byAuthor.set(person.id, [...(byAuthor.get(person.id) ?? []), id]);
    }
  }
  return byAuthor;
}

/** Every page of `limit` rows with `plan`, each page starting after the previous one's last row. */
async function allPages(viewerId: string, filter: FeedFilter, limit: number, plan: FeedPlan): Promise<FeedRow[][]> {
  const pages: FeedRow[][] = [];
  let cursor: { score: number; sessionId: string } | null = null;
  for (let i = 0; i < 200; i++) {
    const page = await feedRepository.listEntries(t.prisma, viewerId, filter, cursor, limit, plan);
    pages.push(page);
    const last = page.at(-1);
    if (page.length < limit || !last) return pages;
    cursor = { score: last.created_at.getTime(), sessionId: last.id };
  }
  throw new Error('the pages never ended');
}

describe('the feed statement per author and newest first', () => {
  it('answers the same rows for every filter, page size and cursor, and both are the feed rules', async () => {
    const people = await cast();
    const { viewer, friend, privateFriend, publicRequested } = people;
    const byAuthor = await sessionsBy(Object.values(people), 6);
    const of = (...who: Client[]) => new Set(who.flatMap((p) => byAuthor.get(p.id) ?? []));
    const expected: Record<'all' | 'following', Set<string>> = {
      all: of(viewer, friend, privateFriend, publicRequested),
      following: of(friend, privateFriend, publicRequested),
    };
    for (const filter of ['all', 'following'] as const) {
      const whole = (await allPages(viewer.id, filter, 1000, 'newest-first')).flat();
      expect(new Set(whole.map((r) => r.id))).toEqual(expected[filter]);
      // Newest first, ties by id descending.
      const order = whole.map((r) => [r.created_at.getTime(), r.id] as const);
      expect(order).toEqual([...order].sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : 0)));
      for (const limit of [1, 2, 5, 7, 1000]) {
        const [perAuthor, newestFirst] = [await allPages(viewer.id, filter, limit, 'per-author'), await allPages(viewer.id, filter, limit, 'newest-first')];
        expect(perAuthor.map((page) => page.map((r) => r.id)), `${filter}, pages of ${limit}`).toEqual(newestFirst.map((page) => page.map((r) => r.id)));
        expect(perAuthor.flat().map((r) => r.id)).toEqual(whole.map((r) => r.id));
      }
    }
  });
});
