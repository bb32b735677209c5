import { randomUUID } from 'node:crypto';
import { REVIEW_TEXT_MAX, type UserSnapshot } from '@hoptrack/proto';
import { audienceRows, eventually, testUserSnapshot } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlaces, type TestPlaces } from './support';

let places: TestPlaces;
let barIds: string[];
let nextBar = 0;
beforeAll(async () => {
  places = await startTestPlaces();
  barIds = (await places.prisma.bar.findMany({ orderBy: { sourceId: 'asc' }, take: 40, select: { id: true } })).map((b) => b.id);
});
afterAll(() => places.close());

/** A bar nobody has reviewed in this run. */
const freshBar = () => {
  const id = barIds[nextBar++];
  if (!id) throw new Error('out of bars');
  return id;
};

function snapshot(id: string, displayName: string, updatedAt = new Date()): UserSnapshot {
  return testUserSnapshot(id, { username: `user_${id.slice(0, 8)}`, displayName, profilePicture: `/api/media/files/avatars/${id}/${randomUUID()}.webp`, updatedAt });
}

/** A user the places read model knows (its name arrives as auth's event would deliver it). */
async function knownUser(displayName: string): Promise<string> {
  const id = randomUUID();
  await places.publish('user.registered.v1', snapshot(id, displayName));
  await eventually(async () => (await audienceRows(places.prisma, 'users', { id })) === 1, `read model of ${displayName}`);
  return id;
}

async function review(barId: string, userId: string, body: object = { rating: 4, reviewText: 'Good pours' }) {
  const res = await (await places.as(userId)).post(`/api/bars/${barId}/reviews`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const barRating = async (barId: string) => (await places.prisma.bar.findUniqueOrThrow({ where: { id: barId } })).rating;

describe('writing reviews', () => {
  it('creates a review with the author from the users read model, and the bar shows it with its new rating', async () => {
    const bar = freshBar();
    const ann = await knownUser('Ann Brewer');
    const created = await review(bar, ann, { rating: 5, reviewText: '  Lovely porter, friendly staff.  ' });
    expect(created).toMatchObject({
      barId: bar,
      userId: ann,
      authorName: 'Ann Brewer',
      authorPicture: expect.stringMatching(/^\/api\/media\/files\/avatars\//),
      rating: 5,
      reviewText: 'Lovely porter, friendly staff.',
      source: 'hoptrack',
      sourceUrl: null,
      isVerified: true,
      helpfulCount: 0,
      currentUserVote: null,
      isOwn: true,
    });
    const other = await places.as(randomUUID());
    const detail = (await other.get(`/api/bars/${bar}`)).json();
    expect(detail.reviewCount).toBe(1);
    expect(detail.rating).toBe(5);
    expect(detail.reviews).toEqual([{ ...created, isOwn: false }]);
    expect((await other.get(`/api/bars/${bar}/reviews`)).json()).toEqual([{ ...created, isOwn: false }]);
  });

  it('rates the bar with the mean of its reviews to one decimal', async () => {
    const bar = freshBar();
    await review(bar, randomUUID(), { rating: 5 });
    await review(bar, randomUUID(), { rating: 4 });
    await review(bar, randomUUID(), { rating: 4 });
    expect(await barRating(bar)).toBe(4.3);
  });

  it('counts every review when many land at once (the bar row serialises the rating)', async () => {
    const bar = freshBar();
    const ratings = [1, 2, 3, 4, 5, 5, 5, 4];
    await Promise.all(ratings.map((rating) => review(bar, randomUUID(), { rating })));
    expect(await barRating(bar)).toBe(Math.round((ratings.reduce((a, b) => a + b) / ratings.length) * 10) / 10);
    expect((await places.get(`/api/bars/${bar}`)).json().reviewCount).toBe(ratings.length);
  });

  it('shows a reviewer unknown to the read model as a Hoptrack user, then by name once their event arrives, and follows renames', async () => {
    const bar = freshBar();
    const late = randomUUID();
    expect((await review(bar, late)).authorName).toBe('Hoptrack user');
    const registered = new Date(Date.now() - 60_000);
    await places.publish('user.registered.v1', snapshot(late, 'Late Larry', registered));
    await eventually(async () => (await places.get(`/api/bars/${bar}/reviews`)).json()[0].authorName === 'Late Larry', 'name from the read model');
    await places.publish('user.updated.v1', snapshot(late, 'Larry Lager', new Date()));
    // A replayed older snapshot must not bring the old name back.
    await places.publish('user.registered.v1', snapshot(late, 'Late Larry', registered));
    await eventually(async () => (await places.get(`/api/bars/${bar}/reviews`)).json()[0].authorName === 'Larry Lager', 'rename');
    await new Promise((r) => setTimeout(r, 200));
    expect((await places.get(`/api/bars/${bar}/reviews`)).json()[0].authorName).toBe('Larry Lager');
  });

  it('stores an empty or blank review text as none', async () => {
    const bar = freshBar();
    expect((await review(bar, randomUUID(), { rating: 3, reviewText: '   ' })).reviewText).toBeNull();
    expect((await review(bar, randomUUID(), { rating: 3 })).reviewText).toBeNull();
  });

  it('takes one review per user and bar: a second answers 409 and changes nothing', async () => {
    const bar = freshBar();
    const user = randomUUID();
    await review(bar, user, { rating: 2 });
    const again = await (await places.as(user)).post(`/api/bars/${bar}/reviews`, { rating: 5 });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: 'You have already reviewed this bar', field: 'rating' });
    expect(await barRating(bar)).toBe(2);
    expect(await places.prisma.barReview.count({ where: { barId: bar } })).toBe(1);
  });

  it.each([
    [{ rating: 0 }, 'rating'],
    [{ rating: 6 }, 'rating'],
    [{ rating: -1 }, 'rating'],
    [{ rating: 3.5 }, 'rating'],
    [{ rating: '4' }, 'rating'],
    [{ rating: null }, 'rating'],
    [{}, 'rating'],
    [{ rating: 4, reviewText: 'x'.repeat(REVIEW_TEXT_MAX + 1) }, 'reviewText'],
    [{ rating: 4, reviewText: 42 }, 'reviewText'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const bar = freshBar();
    const res = await places.post(`/api/bars/${bar}/reviews`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe(field);
    expect(await places.prisma.barReview.count({ where: { barId: bar } })).toBe(0);
  });

  it('accepts a review of exactly the maximum length', async () => {
    expect((await review(freshBar(), randomUUID(), { rating: 1, reviewText: 'x'.repeat(REVIEW_TEXT_MAX) })).reviewText).toHaveLength(REVIEW_TEXT_MAX);
  });

  it('answers 404 for an unknown bar and 400 for a malformed id', async () => {
    const unknown = randomUUID();
    expect((await places.post(`/api/bars/${unknown}/reviews`, { rating: 4 })).statusCode).toBe(404);
    expect((await places.get(`/api/bars/${unknown}/reviews`)).statusCode).toBe(404);
    const malformed = await places.get('/api/bars/not-a-uuid/reviews');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().field).toBe('id');
  });

  it('requires a signed-in user', async () => {
    expect((await places.anonymous(`/api/bars/${barIds[0]}/reviews`)).statusCode).toBe(401);
  });
});

describe('listing reviews', () => {
  it('lists newest first and pages with limit and offset', async () => {
    const bar = freshBar();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await review(bar, randomUUID(), { rating: 1 + (i % 5) })).id);
    const newestFirst = [...ids].reverse();
    expect((await places.get(`/api/bars/${bar}/reviews`)).json().map((r: { id: string }) => r.id)).toEqual(newestFirst);
    expect((await places.get(`/api/bars/${bar}/reviews?limit=3&offset=2`)).json().map((r: { id: string }) => r.id)).toEqual(newestFirst.slice(2, 5));
    const detail = (await places.get(`/api/bars/${bar}`)).json();
    expect(detail.reviews.map((r: { id: string }) => r.id)).toEqual(newestFirst.slice(0, 5));
    expect(detail.reviewCount).toBe(7);
    expect((await places.get(`/api/bars/${bar}/reviews?limit=0`)).statusCode).toBe(400);
  });

  it('hides reviews between people who blocked each other, in the list, the detail and the count, until unblocked', async () => {
    const bar = freshBar();
    const author = randomUUID();
    const blocker = randomUUID();
    const blockedByAuthor = randomUUID();
    const bystander = randomUUID();
    const written = await review(bar, author);
    await places.publish('social.user.blocked.v1', { blockerId: blocker, blockedId: author });
    await places.publish('social.user.blocked.v1', { blockerId: author, blockedId: blockedByAuthor });
    await eventually(async () => (await audienceRows(places.prisma, 'blocks', { blocker_id: blocker })) + (await audienceRows(places.prisma, 'blocks', { blocker_id: author })) === 2, 'blocks');

    for (const viewer of [blocker, blockedByAuthor]) {
      const client = await places.as(viewer);
      expect((await client.get(`/api/bars/${bar}/reviews`)).json()).toEqual([]);
      expect((await client.get(`/api/bars/${bar}`)).json()).toMatchObject({ reviews: [], reviewCount: 0 });
      expect((await client.post(`/api/bars/${bar}/reviews/${written.id}/helpful`)).statusCode).toBe(404);
    }
    expect((await (await places.as(bystander)).get(`/api/bars/${bar}/reviews`)).json()).toHaveLength(1);

    await places.publish('social.user.unblocked.v1', { blockerId: blocker, blockedId: author });
    await eventually(async () => (await (await places.as(blocker)).get(`/api/bars/${bar}/reviews`)).json().length === 1, 'unblocked');
    expect((await (await places.as(blockedByAuthor)).get(`/api/bars/${bar}/reviews`)).json()).toEqual([]);
  });
});

describe('helpfulness', () => {
  it('counts a helpful vote once per user: a second vote answers 409', async () => {
    const bar = freshBar();
    const written = await review(bar, randomUUID());
    const voter = await places.as(randomUUID());
    const first = await voter.post(`/api/bars/${bar}/reviews/${written.id}/helpful`);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ id: written.id, helpfulCount: 1, currentUserVote: true, isOwn: false });
    for (const body of [undefined, { isHelpful: true }, { isHelpful: false }]) {
      const again = await voter.post(`/api/bars/${bar}/reviews/${written.id}/helpful`, body);
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe('You have already voted on this review');
    }
    expect((await places.get(`/api/bars/${bar}/reviews`)).json()[0]).toMatchObject({ helpfulCount: 1, currentUserVote: null });
    expect(await places.prisma.reviewHelpfulness.count({ where: { reviewId: written.id } })).toBe(1);
  });

  it('records a not-helpful vote without raising the count', async () => {
    const bar = freshBar();
    const written = await review(bar, randomUUID());
    const res = await (await places.as(randomUUID())).post(`/api/bars/${bar}/reviews/${written.id}/helpful`, { isHelpful: false });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ helpfulCount: 0, currentUserVote: false });
  });

  it('keeps the count exact under concurrent votes', async () => {
    const bar = freshBar();
    const written = await review(bar, randomUUID());
    const voters = await Promise.all(Array.from({ length: 12 }, () => places.as(randomUUID())));
    const results = await Promise.all(voters.map((v) => v.post(`/api/bars/${bar}/reviews/${written.id}/helpful`)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(12).fill(201));
    expect((await places.get(`/api/bars/${bar}/reviews`)).json()[0].helpfulCount).toBe(12);
  });

  it('refuses a vote on one\'s own review (403), on an unknown review or one under another bar (404), and a bad body (400)', async () => {
    const bar = freshBar();
    const author = randomUUID();
    const written = await review(bar, author);
    expect((await (await places.as(author)).post(`/api/bars/${bar}/reviews/${written.id}/helpful`)).statusCode).toBe(403);
    expect((await places.post(`/api/bars/${bar}/reviews/${randomUUID()}/helpful`)).statusCode).toBe(404);
    expect((await places.post(`/api/bars/${freshBar()}/reviews/${written.id}/helpful`)).statusCode).toBe(404);
    const bad = await places.post(`/api/bars/${bar}/reviews/${written.id}/helpful`, { isHelpful: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('isHelpful');
    expect((await places.get(`/api/bars/${bar}/reviews`)).json()[0].helpfulCount).toBe(0);
  });
});

describe('deleting reviews', () => {
  it('lets only the author delete; the rating follows and the votes go with it', async () => {
    const bar = freshBar();
    const author = randomUUID();
    const kept = await review(bar, randomUUID(), { rating: 2 });
    const written = await review(bar, author, { rating: 5 });
    await (await places.as(randomUUID())).post(`/api/bars/${bar}/reviews/${written.id}/helpful`);
    expect(await barRating(bar)).toBe(3.5);

    expect((await places.delete(`/api/bars/${bar}/reviews/${written.id}`)).statusCode).toBe(403);
    const client = await places.as(author);
    expect((await client.delete(`/api/bars/${bar}/reviews/${written.id}`)).statusCode).toBe(204);
    expect((await client.delete(`/api/bars/${bar}/reviews/${written.id}`)).statusCode).toBe(404);
    expect(await barRating(bar)).toBe(2);
    expect(await places.prisma.reviewHelpfulness.count({ where: { reviewId: written.id } })).toBe(0);

    expect((await (await places.as(kept.userId)).delete(`/api/bars/${bar}/reviews/${kept.id}`)).statusCode).toBe(204);
    expect(await barRating(bar)).toBeNull();
  });
});

describe('food on the bar detail', () => {
  it('lists the bar\'s dishes with their price, availability and allergens, by category', async () => {
    const bar = freshBar();
    const pretzel = await places.prisma.foodItem.create({ data: { name: 'Soft pretzel', category: 'Snacks', allergens: ['gluten'] } });
    const burger = await places.prisma.foodItem.create({ data: { name: 'Beer burger', category: 'Mains', description: 'With stout onions', allergens: ['gluten', 'mustard'] } });
    await places.prisma.barFood.createMany({ data: [{ barId: bar, foodItemId: pretzel.id, price: 4.5 }, { barId: bar, foodItemId: burger.id, price: 13, isAvailable: false }] });
    const detail = (await places.get(`/api/bars/${bar}`)).json();
    expect(detail.food).toEqual([
      { id: burger.id, name: 'Beer burger', category: 'Mains', description: 'With stout onions', imageUrl: null, allergens: ['gluten', 'mustard'], price: 13, isAvailable: false },
      { id: pretzel.id, name: 'Soft pretzel', category: 'Snacks', description: null, imageUrl: null, allergens: ['gluten'], price: 4.5, isAvailable: true },
    ]);
    expect((await places.get(`/api/bars/${freshBar()}`)).json().food).toEqual([]);
  });
});
