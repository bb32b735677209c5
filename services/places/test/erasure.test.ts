import { randomUUID } from 'node:crypto';
import type { Review, UserSnapshot } from '@hoptrack/proto';
import { audienceRows, eventually, publishEvent, readEvents, testUserSnapshot } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlaces, type Client, type TestPlaces } from './support';

/**
 * Account deletion (issue 24), places' part: on user.deleted.v1 the person's
 * reviews (with the votes others gave them) and their votes go; the helpful
 * counts and the bars' ratings they were part of are corrected, and every
 * other review, vote and count stays as it was.
 */
let places: TestPlaces;
let barIds: string[];

beforeAll(async () => {
  // The definition's own erasure consumer, beside the audience's.
  places = await startTestPlaces({}, { consumers: ['audience', 'erasure'] });
  barIds = (await places.prisma.bar.findMany({ orderBy: { sourceId: 'desc' }, take: 4, select: { id: true } })).map((b) => b.id);
});
afterAll(async () => {
  await places?.close();
});

/** Every table of the service's database, by its rows' text: how many rows name `needle`. */
async function rowsNaming(needle: string): Promise<Record<string, number>> {
  const tables = await places.prisma.$queryRawUnsafe<Array<{ name: string }>>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT LIKE '\\_prisma%' ORDER BY 1`,
  );
  expect(tables.map((r) => r.name)).toEqual(expect.arrayContaining(['bar_reviews', 'review_helpfulness', 'bars', 'users', 'outbox', 'erased_people']));
  const found: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = await places.prisma.$queryRawUnsafe<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM "${name}" t WHERE t::text ILIKE $1`, `%${needle}%`);
    if ((row?.n ?? 0) > 0) found[name] = row?.n ?? 0;
  }
  return found;
}

function snapshot(id: string, name: string, updatedAt = new Date()): UserSnapshot {
  return testUserSnapshot(id, { username: `user_${id.slice(0, 8)}`, displayName: name, updatedAt });
}

async function person(name: string): Promise<{ id: string; client: Client }> {
  const id = randomUUID();
  await places.publish('user.registered.v1', snapshot(id, name));
  await eventually(async () => (await audienceRows(places.prisma, 'users', { id })) === 1, `read model of ${name}`);
  return { id, client: await places.as(id) };
}

async function review(who: Client, barId: string, rating: number): Promise<Review> {
  const res = await who.post(`/api/bars/${barId}/reviews`, { rating, reviewText: `rated ${rating}` });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Review>();
}

async function vote(who: Client, r: Review, isHelpful: boolean): Promise<void> {
  const res = await who.post(`/api/bars/${r.barId}/reviews/${r.id}/helpful`, { isHelpful });
  expect(res.statusCode, res.body).toBe(201);
}

const erasedReports = async (userId: string) =>
  (await readEvents(places.bus, 'USERS', 'user.erased.v1')).filter((e) => e.data.userId === userId && e.data.service === 'places').length;

async function deleteAccount(userId: string, n: number): Promise<void> {
  await publishEvent(places.bus, 'user.deleted.v1', { userId });
  await expect.poll(() => erasedReports(userId)).toBe(n);
}

/** What the others see: each bar's rating, review count and reviews (id, author, helpful count, own vote). */
async function state(viewer: Client, bars: string[]) {
  return Promise.all(
    bars.map(async (bar) => {
      const detail = (await viewer.get(`/api/bars/${bar}`)).json<{ rating: number | null; reviewCount: number }>();
      const reviews = (await viewer.get(`/api/bars/${bar}/reviews`)).json<Review[]>();
      return {
        rating: detail.rating,
        reviewCount: detail.reviewCount,
        reviews: reviews.map((r) => ({ id: r.id, userId: r.userId, helpfulCount: r.helpfulCount, vote: r.currentUserVote })),
      };
    }),
  );
}

describe('user.deleted.v1', () => {
  it('erases the person’s reviews and votes, corrects the counts and ratings, keeps everyone else’s', async () => {
    const [shared, onlyHers, carols, untouched] = barIds as [string, string, string, string];
    const alice = await person('Alice Erased');
    const bob = await person('Bob');
    const carol = await person('Carol');

    // Bar 1: Alice 5, Bob 3 (rating 4). Bar 2: only Alice. Bar 3: Carol's. Bar 4: Bob's, nothing of Alice.
    const alicesReview = await review(alice.client, shared, 5);
    const bobsReview = await review(bob.client, shared, 3);
    await review(alice.client, onlyHers, 2);
    const carolsReview = await review(carol.client, carols, 4);
    const bobsOther = await review(bob.client, untouched, 1);
    // Others' votes on Alice's review; Alice's votes on others' (helpful and not); others' votes on others'.
    await vote(bob.client, alicesReview, true);
    await vote(carol.client, alicesReview, false);
    await vote(alice.client, bobsReview, true);
    await vote(carol.client, bobsReview, true);
    await vote(alice.client, carolsReview, false);
    await vote(bob.client, carolsReview, true);
    await vote(carol.client, bobsOther, true);
    await places.relay.drain();

    expect(await state(carol.client, [shared, onlyHers, carols, untouched])).toEqual([
      {
        rating: 4,
        reviewCount: 2,
        reviews: [
          { id: bobsReview.id, userId: bob.id, helpfulCount: 2, vote: true },
          { id: alicesReview.id, userId: alice.id, helpfulCount: 1, vote: false },
        ],
      },
      { rating: 2, reviewCount: 1, reviews: [expect.objectContaining({ userId: alice.id })] },
      { rating: 4, reviewCount: 1, reviews: [{ id: carolsReview.id, userId: carol.id, helpfulCount: 1, vote: null }] },
      { rating: 1, reviewCount: 1, reviews: [{ id: bobsOther.id, userId: bob.id, helpfulCount: 1, vote: true }] },
    ]);
    expect(Object.keys(await rowsNaming(alice.id))).toEqual(expect.arrayContaining(['bar_reviews', 'review_helpfulness', 'users', 'outbox']));

    await deleteAccount(alice.id, 1);

    expect(await rowsNaming(alice.id)).toEqual({});
    expect(await rowsNaming('Alice Erased')).toEqual({});
    // Bar 1 is Bob's 3 alone, with Carol's helpful vote only; bar 2 has no rating left; the others are as they were.
    const after = [
      { rating: 3, reviewCount: 1, reviews: [{ id: bobsReview.id, userId: bob.id, helpfulCount: 1, vote: true }] },
      { rating: null, reviewCount: 0, reviews: [] },
      { rating: 4, reviewCount: 1, reviews: [{ id: carolsReview.id, userId: carol.id, helpfulCount: 1, vote: null }] },
      { rating: 1, reviewCount: 1, reviews: [{ id: bobsOther.id, userId: bob.id, helpfulCount: 1, vote: true }] },
    ];
    expect(await state(carol.client, [shared, onlyHers, carols, untouched])).toEqual(after);
    expect(await places.prisma.reviewHelpfulness.count({ where: { userId: { in: [bob.id, carol.id] } } })).toBe(3);
    // Her token is refused from now on (she cannot write a review back).
    expect((await alice.client.post(`/api/bars/${onlyHers}/reviews`, { rating: 1 })).statusCode).toBe(401);

    // A second deletion (a new envelope) changes nothing.
    await deleteAccount(alice.id, 2);
    expect(await state(carol.client, [shared, onlyHers, carols, untouched])).toEqual(after);
    expect(await rowsNaming(alice.id)).toEqual({});

    // A late snapshot and a late block naming her (published before the deletion, delivered after) bring nothing back.
    await publishEvent(places.bus, 'user.updated.v1', snapshot(alice.id, 'Alice Erased', new Date(Date.now() + 5000)));
    await publishEvent(places.bus, 'social.user.blocked.v1', { blockerId: alice.id, blockedId: bob.id });
    // Events after them on the same streams: once those are applied, both consumers have handled hers.
    const dave = await person('Dave');
    await publishEvent(places.bus, 'social.user.blocked.v1', { blockerId: dave.id, blockedId: bob.id });
    await eventually(async () => (await audienceRows(places.prisma, 'blocks', { blocker_id: dave.id })) === 1, 'dave’s block');
    expect(await rowsNaming(alice.id)).toEqual({});
    expect(await state(carol.client, [shared, onlyHers, carols, untouched])).toEqual(after);
  });
});
