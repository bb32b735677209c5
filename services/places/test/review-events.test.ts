import { randomUUID } from 'node:crypto';
import type { Review } from '@hoptrack/proto';
import { eventually } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlaces, type TestPlaces } from './support';

/**
 * The review events challenges count (place.review.created.v1 and
 * place.review.deleted.v1), read back from NATS. The relay polls once an
 * hour here, so an event that shows up at all was sent by the poke after
 * its commit, not found by a poll.
 */
let places: TestPlaces;
let barIds: string[];
let nextBar = 0;
beforeAll(async () => {
  places = await startTestPlaces({ OUTBOX_POLL_MS: String(60 * 60 * 1000) });
  barIds = (await places.prisma.bar.findMany({ orderBy: { sourceId: 'desc' }, take: 10, select: { id: true } })).map((b) => b.id);
});
afterAll(() => places?.close());

/** A bar nobody has reviewed in this file. */
const freshBar = () => {
  const id = barIds[nextBar++];
  if (!id) throw new Error('out of bars');
  return id;
};

async function review(barId: string, userId: string): Promise<Review> {
  const res = await (await places.as(userId)).post(`/api/bars/${barId}/reviews`, { rating: 4, reviewText: 'Good pours' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const ofBar = async (barId: string) =>
  (await places.published('place.review.created.v1', 'place.review.deleted.v1')).filter((e) => e.data.barId === barId).map(({ type, data }) => ({ type, data }));

/** The review events of one bar in stream order, once `count` of them have been published. */
async function barEvents(barId: string, count: number): ReturnType<typeof ofBar> {
  await eventually(async () => (await ofBar(barId)).length >= count, `${count} review events of the bar published`);
  return ofBar(barId);
}

describe('review events', () => {
  it('publishes place.review.created.v1 when a review is written', async () => {
    const bar = freshBar();
    const author = randomUUID();
    const created = await review(bar, author);
    expect(await barEvents(bar, 1)).toEqual([
      { type: 'place.review.created.v1', data: { reviewId: created.id, barId: bar, userId: author, createdAt: created.reviewDate } },
    ]);
  });

  it('publishes place.review.deleted.v1 when its author deletes it, and nothing for refused calls', async () => {
    const bar = freshBar();
    const author = randomUUID();
    const created = await review(bar, author);
    const client = await places.as(author);
    // Refused: a second review (409), someone else's delete (403). Neither may publish anything.
    expect((await client.post(`/api/bars/${bar}/reviews`, { rating: 1 })).statusCode).toBe(409);
    expect((await places.delete(`/api/bars/${bar}/reviews/${created.id}`)).statusCode).toBe(403);
    expect((await client.delete(`/api/bars/${bar}/reviews/${created.id}`)).statusCode).toBe(204);
    expect((await client.delete(`/api/bars/${bar}/reviews/${created.id}`)).statusCode).toBe(404);
    // The outbox publishes in commit order: had a refused call written an event, it would sit before the deleted.
    expect(await barEvents(bar, 2)).toEqual([
      { type: 'place.review.created.v1', data: { reviewId: created.id, barId: bar, userId: author, createdAt: created.reviewDate } },
      { type: 'place.review.deleted.v1', data: { reviewId: created.id, barId: bar, userId: author } },
    ]);
  });

  it('publishes one deleted event when the author deletes twice at once', async () => {
    const bar = freshBar();
    const author = randomUUID();
    const created = await review(bar, author);
    const client = await places.as(author);
    const statuses = await Promise.all([1, 2].map(() => client.delete(`/api/bars/${bar}/reviews/${created.id}`).then((r) => r.statusCode)));
    expect(statuses.sort()).toEqual([204, 404]);
    // A later review of the same bar marks the end: a second deleted would have been published before it.
    const again = await review(bar, author);
    expect((await barEvents(bar, 3)).map((e) => [e.type, e.data.reviewId])).toEqual([
      ['place.review.created.v1', created.id],
      ['place.review.deleted.v1', created.id],
      ['place.review.created.v1', again.id],
    ]);
  });
});

describe('readiness', () => {
  it('reports Postgres and NATS on /readyz', async () => {
    const res = await places.anonymous('/readyz');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', checks: { postgres: 'ok', nats: 'ok' } });
  });
});
