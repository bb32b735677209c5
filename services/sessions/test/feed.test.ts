import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSessions, type TestSessions } from './support';

let t: TestSessions;
beforeAll(async () => {
  t = await startTestSessions();
});
afterAll(() => t?.close());

const feedIds = async (client: { get(url: string): Promise<{ json(): unknown; statusCode: number }> }, query = '') => {
  const res = await client.get(`/api/sessions${query}`);
  expect(res.statusCode).toBe(200);
  return (res.json() as Array<{ id: string }>).map((s) => s.id);
};

describe('the feed', () => {
  it('reaches a friend, not a stranger; a private author reaches friends only', async () => {
    const [author, friend, stranger] = [await t.user(), await t.user(), await t.user()];
    await t.befriend(author, friend);
    const { id } = await t.logSession(author, { title: 'Porter night', beerCount: '3', duration: '90', beerTypes: '["Porter"," porter ","Stout"]' });
    expect(await feedIds(friend)).toEqual([id]);
    expect(await feedIds(author)).toEqual([id]);
    expect(await feedIds(stranger)).toEqual([]);
    const timeline = await t.timelines.members(friend.id);
    expect(timeline.filter((m) => m.endsWith(id))).toHaveLength(1);
    const card = (await friend.get(`/api/sessions/${id}`)).json();
    expect(card).toMatchObject({ title: 'Porter night', beerCount: 3, duration: 90, beerTypes: ['Porter', 'Stout'], likeCount: 0, isLikedByCurrentUser: false });
  });

  it("shows a new session in its author's feed at once, before any fan-out ran", async () => {
    const author = await t.user();
    expect(await feedIds(author)).toEqual([]); // builds the (empty) timeline
    const res = await author.form('POST', '/api/sessions', { title: 'Straight away' });
    expect(res.statusCode).toBe(201);
    expect(await feedIds(author)).toEqual([res.json().id]);
    await t.settle();
    expect(await feedIds(author)).toEqual([res.json().id]);
  });

  it('stores a session photo through the media service as the author’s, and shows it signed for the viewer', async () => {
    const author = await t.user();
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c80' } }).jpeg().toBuffer();
    const res = await author.form('POST', '/api/sessions', { title: 'With a photo' }, { data: jpeg });
    expect(res.statusCode, res.body).toBe(201);
    const photo: string = res.json().photo;
    expect(photo).toMatch(new RegExp(`^/api/media/files/uploads/${author.id}/[0-9a-f-]{36}\\.webp\\?exp=\\d+&v=${author.id}&sig=[\\w-]+$`));
    // The media service serves it for that signature, and not without one.
    const served = await fetch(`${t.media.url}${photo}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect((await fetch(`${t.media.url}${photo.split('?')[0]}`)).status).toBe(404);
    // Stored as the path: the signature is made per viewer when shown.
    expect((await t.prisma.beerSession.findUniqueOrThrow({ where: { id: res.json().id } })).photo).toBe(photo.split('?')[0]);
  });

  it('is rebuilt from Postgres after FLUSHALL with the same content', async () => {
    const [a, b] = [await t.user(), await t.user()];
    await t.befriend(a, b);
    await t.logSession(a, { title: 'one' });
    await t.logSession(b, { title: 'two' });
    const before = await feedIds(b);
    expect(before).toHaveLength(2);
    await t.redis.del(t.timelines.key(b.id));
    expect(await feedIds(b)).toEqual(before);
  });
});
