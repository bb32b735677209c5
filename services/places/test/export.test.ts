import { randomUUID } from 'node:crypto';
import { exportPart, type ExportPart, type Review, type UserSnapshot } from '@hoptrack/proto';
import { exportPartName, exportParts } from '@hoptrack/runtime';
import { audienceRows, eventually, publishEvent, readEvents, testUserSnapshot } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlaces, type Client, type TestPlaces } from './support';

/**
 * Issue 24 item 3: on user.export.requested.v1 places writes its part: the
 * reviews the person wrote (bar, rating, text, date) and the helpfulness
 * votes they gave. Nothing of others' reviews or of who voted on theirs; a
 * repeated request overwrites the part.
 */
let places: TestPlaces;
let bars: Array<{ id: string; name: string }>;

beforeAll(async () => {
  // The definition's own export part, beside the audience's consumers.
  places = await startTestPlaces({}, { consumers: ['audience', 'export'] });
  bars = await places.prisma.bar.findMany({ orderBy: { sourceId: 'desc' }, take: 3, select: { id: true, name: true } });
});
afterAll(async () => {
  await places?.close();
});

function snapshot(id: string, name: string): UserSnapshot {
  return testUserSnapshot(id, { username: `user_${id.slice(0, 8)}`, displayName: name });
}

async function person(name: string): Promise<{ id: string; client: Client }> {
  const id = randomUUID();
  await places.publish('user.registered.v1', snapshot(id, name));
  await eventually(async () => (await audienceRows(places.prisma, 'users', { id })) === 1, `read model of ${name}`);
  return { id, client: await places.as(id) };
}

async function review(who: Client, barId: string, rating: number, reviewText: string): Promise<Review> {
  const res = await who.post(`/api/bars/${barId}/reviews`, { rating, reviewText });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Review>();
}

async function vote(who: Client, r: Review, isHelpful: boolean): Promise<void> {
  const res = await who.post(`/api/bars/${r.barId}/reviews/${r.id}/helpful`, { isHelpful });
  expect(res.statusCode, res.body).toBe(201);
}

const reports = async (exportId: string) =>
  (await readEvents(places.bus, 'USERS', 'user.export.contributed.v1')).filter((e) => e.data.exportId === exportId && e.data.service === 'places');

async function requestExport(userId: string, exportId: string, nth = 1): Promise<ExportPart> {
  await publishEvent(places.bus, 'user.export.requested.v1', { exportId, userId });
  await eventually(async () => (await reports(exportId)).length === nth, `user.export.contributed.v1 #${nth} from places`);
  const blob = await (await exportParts(places.bus)).getBlob(exportPartName(exportId, 'places'));
  if (!blob) throw new Error('the part is not in the object store');
  return exportPart.parse(JSON.parse(new TextDecoder().decode(blob)));
}

interface PlacesPart {
  reviews: Array<{ id: string; bar: { id: string; name: string }; rating: number; reviewText: string | null; reviewDate: string; helpfulCount: number }>;
  helpfulnessVotes: Array<{ reviewId: string; bar: { id: string; name: string }; isHelpful: boolean; votedAt: string }>;
}

describe('the places part of a data export', () => {
  it('holds the person’s reviews and votes, nothing of others’ reviews or votes, and a repeated request overwrites it', async () => {
    const [bar0, bar1, bar2] = bars;
    if (!bar0 || !bar1 || !bar2) throw new Error('the catalogue has fewer than 3 bars');
    const [me, ann, bob] = [await person('Me Myself'), await person('Ann Other'), await person('Bob Other')];
    const mine = await review(me.client, bar0.id, 4, 'Good cask ales');
    const annReview = await review(ann.client, bar0.id, 2, 'Ann thinks it is too loud');
    const bobReview = await review(bob.client, bar1.id, 5, 'Bob loves it');
    await vote(me.client, annReview, false);
    await vote(me.client, bobReview, true);
    await vote(ann.client, mine, true);
    await vote(bob.client, mine, true);
    await vote(ann.client, bobReview, false);

    const exportId = randomUUID();
    const part = await requestExport(me.id, exportId);
    expect(part.service).toBe('places');
    expect(part.files).toEqual([]);
    const data = part.data as PlacesPart;
    expect(Object.keys(data).sort()).toEqual(['helpfulnessVotes', 'reviews']);
    expect(data.reviews).toEqual([
      { id: mine.id, bar: expect.objectContaining({ id: bar0.id, name: bar0.name }), rating: 4, reviewText: 'Good cask ales', reviewDate: expect.any(String), helpfulCount: 2 },
    ]);
    expect(new Date(data.reviews[0]?.reviewDate ?? '').toISOString()).toBe(data.reviews[0]?.reviewDate);
    expect(data.helpfulnessVotes).toEqual([
      { reviewId: annReview.id, bar: { id: bar0.id, name: bar0.name }, isHelpful: false, votedAt: expect.any(String) },
      { reviewId: bobReview.id, bar: { id: bar1.id, name: bar1.name }, isHelpful: true, votedAt: expect.any(String) },
    ]);
    const text = JSON.stringify(part);
    for (const needle of ['Ann thinks', 'Bob loves', ann.id, bob.id, 'Ann Other', 'Bob Other']) expect(text).not.toContain(needle);

    // Asked again with the same export id: replaced, not added beside.
    await review(me.client, bar2.id, 3, 'Fine');
    const again = (await requestExport(me.id, exportId, 2)).data as PlacesPart;
    expect(again.reviews.map((r) => [r.bar.id, r.rating])).toEqual([
      [bar0.id, 4],
      [bar2.id, 3],
    ]);
    const names: string[] = [];
    for await (const info of await (await exportParts(places.bus)).list()) if (!info.deleted) names.push(info.name);
    expect(names.filter((n) => n === exportPartName(exportId, 'places'))).toHaveLength(1);

    // Ann's export: her review and her votes, not the person's.
    const hers = (await requestExport(ann.id, randomUUID())).data as PlacesPart;
    expect(hers.reviews.map((r) => r.id)).toEqual([annReview.id]);
    expect(hers.helpfulnessVotes.map((v) => [v.reviewId, v.isHelpful])).toEqual([
      [mine.id, true],
      [bobReview.id, false],
    ]);
    expect(JSON.stringify(hers)).not.toContain('Good cask ales');
  });
});
