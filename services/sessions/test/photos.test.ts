import { NAMED_PHOTOS_MAX, SESSION_PHOTOS_MAX, type FeedSession, type PublicSession } from '@hoptrack/proto';
import { randomUUID } from 'node:crypto';
import { FileSignature } from '@hoptrack/runtime';
import { eventually } from '@hoptrack/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PhotoUrls } from '../src/photos/photo-urls';
import { expectError, jpeg, ok } from './helpers';
import { startTestSessions, type Client, type Photo, type TestSessions } from './support';

/** Several photos per session (issue 25): up to SESSION_PHOTOS_MAX `sessionPhoto` parts, kept in order. */
let t: TestSessions;
beforeAll(async () => {
  t = await startTestSessions();
});
afterAll(() => t?.close());

const COLOURS = ['#c80', '#08c', '#8c0', '#c08', '#0c8', '#80c', '#888', '#f00', '#0f0', '#00f', '#ff0'];
const photos = (n: number): Promise<Photo[]> => Promise.all(COLOURS.slice(0, n).map(async (colour, i) => ({ data: await jpeg(colour), filename: `p${i}.jpg` })));
/** A signed URL's stored path (what the row keeps). */
const pathOf = (url: string) => url.split('?')[0] ?? url;
const signedFor = (viewer: Client) => new RegExp(`^/api/media/files/uploads/[0-9a-f-]{36}/[0-9a-f-]{36}\\.webp\\?exp=\\d+&v=${viewer.id}&sig=[\\w-]+$`);
const card = async (viewer: Client, id: string) => ok<FeedSession>(await viewer.get(`/api/sessions/${id}`));
const publicList = async (viewer: Client, authorId: string) => ok<PublicSession[]>(await viewer.get(`/api/users/${authorId}/sessions`));
const rowCount = () => t.prisma.beerSession.count();

describe('photos of a session', () => {
  it('stores three photos in order; the card, the feed and the public list carry them signed for each viewer', async () => {
    const [author, friend] = [await t.user(), await t.user()];
    await t.befriend(author, friend);
    const res = await author.form('POST', '/api/sessions', { title: 'Three pints' }, await photos(3));
    const created = ok<FeedSession>(res, 201);
    expect(created.photos).toHaveLength(3);
    for (const url of created.photos) expect(url).toMatch(signedFor(author));
    // `photo` stays the first, for clients that know one photo.
    expect(created.photo).toBe(created.photos[0]);
    const row = await t.prisma.beerSession.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.photos).toEqual(created.photos.map(pathOf));
    expect(row.photo).toBe(row.photos[0]);
    await t.settle();

    // The friend's card (read model) and feed page carry the same three, in order, signed for the friend.
    const seen = await card(friend, created.id);
    expect(seen.photos.map(pathOf)).toEqual(row.photos);
    for (const url of seen.photos) expect(url).toMatch(signedFor(friend));
    const feed = ok<FeedSession[]>(await friend.get('/api/sessions'));
    expect(feed.find((s) => s.id === created.id)?.photos.map(pathOf)).toEqual(row.photos);
    // The public list (the profile's Beer Sessions tab) too.
    const [listed] = await publicList(friend, author.id);
    expect(listed?.photos.map(pathOf)).toEqual(row.photos);
    for (const url of listed?.photos ?? []) expect(url).toMatch(signedFor(friend));
    // Each is served by media for that signature, in the order sent: red-, blue-, then green-most (#c80, #08c, #8c0).
    const strongest: string[] = [];
    for (const url of seen.photos) {
      const served = await fetch(`${t.media.url}${url}`);
      expect(served.status).toBe(200);
      const { channels } = await sharp(Buffer.from(await served.arrayBuffer())).stats();
      const means = channels.slice(0, 3).map((c) => c.mean);
      strongest.push(['red', 'green', 'blue'][means.indexOf(Math.max(...means))] ?? '?');
    }
    expect(strongest).toEqual(['red', 'blue', 'green']);
  });

  it('serves a cached card with its list: a warm read makes no extra statement for the photos', async () => {
    const author = await t.user();
    const { id } = await t.logSession(author, { title: 'Warm' }, await photos(2));
    await card(author, id); // fills the read model
    const statements = await t.statementsOf(() => card(author, id));
    expect(statements).toHaveLength(1); // the viewer's bits only, as for a card without photos
    expect((await card(author, id)).photos).toHaveLength(2);
  });

  it(`refuses more than ${SESSION_PHOTOS_MAX} photos with 400 on sessionPhoto, and stores nothing`, async () => {
    const author = await t.user();
    const before = await rowCount();
    const res = await author.form('POST', '/api/sessions', { title: 'Too many' }, await photos(SESSION_PHOTOS_MAX + 1));
    expectError(res, 400, { field: 'sessionPhoto' });
    expect(res.json().message).toMatch(/at most 10 photos/);
    expect(await rowCount()).toBe(before);
    // Exactly the limit is fine.
    const full = ok<FeedSession>(await author.form('POST', '/api/sessions', { title: 'Ten' }, await photos(SESSION_PHOTOS_MAX)), 201);
    expect(full.photos).toHaveLength(SESSION_PHOTOS_MAX);
  });

  it('refuses an oversize photo among several with 413', async () => {
    const author = await t.user();
    const before = await rowCount();
    const big = Buffer.concat([await jpeg(), Buffer.alloc(10 * 1024 * 1024 + 1024, 7)]);
    const res = await author.form('POST', '/api/sessions', { title: 'Huge' }, [...(await photos(2)), { data: big }]);
    expect(res.statusCode, res.body).toBe(413);
    expect(await rowCount()).toBe(before);
  });

  it('an edit with new photos replaces the list; one without keeps it; removePhoto=true clears it', async () => {
    const author = await t.user();
    const created = ok<FeedSession>(await author.form('POST', '/api/sessions', { title: 'Edited' }, await photos(3)), 201);
    const kept = ok<FeedSession>(await author.form('PUT', `/api/sessions/${created.id}`, { title: 'Renamed' }));
    expect(kept.photos.map(pathOf)).toEqual(created.photos.map(pathOf));

    const replaced = ok<FeedSession>(await author.form('PUT', `/api/sessions/${created.id}`, {}, await photos(2)));
    expect(replaced.photos).toHaveLength(2);
    expect(replaced.photos.map(pathOf).some((p) => created.photos.map(pathOf).includes(p))).toBe(false);
    expect(replaced.photo).toBe(replaced.photos[0]);
    expect(await t.prisma.beerSession.findUniqueOrThrow({ where: { id: created.id } })).toMatchObject({ photos: replaced.photos.map(pathOf), photo: pathOf(replaced.photos[0] ?? '') });

    const cleared = ok<FeedSession>(await author.form('PUT', `/api/sessions/${created.id}`, { removePhoto: 'true' }));
    expect(cleared).toMatchObject({ photo: null, photos: [] });
    expect(await t.prisma.beerSession.findUniqueOrThrow({ where: { id: created.id } })).toMatchObject({ photo: null, photos: [] });
    expect((await publicList(author, author.id))[0]?.photos).toEqual([]);
  });

  it('shows a row that only has the one `photo` column (logged before the list) as a list of one', async () => {
    const author = await t.user();
    const created = ok<FeedSession>(await author.form('POST', '/api/sessions', { title: 'Old row' }, await photos(1)), 201);
    const path = pathOf(created.photo ?? '');
    await t.prisma.beerSession.update({ where: { id: created.id }, data: { photos: [] } });
    await t.cards.invalidate([created.id]);
    expect((await card(author, created.id)).photos.map(pathOf)).toEqual([path]);
    expect((await publicList(author, author.id))[0]?.photos.map(pathOf)).toEqual([path]);
  });

  it("keeps a private author's photos from a stranger, as before: no card, no list, and media refuses a URL signed for them", async () => {
    const [author, friend, stranger] = [await t.user({ private: true }), await t.user(), await t.user()];
    await t.befriend(author, friend);
    const { id } = await t.logSession(author, { title: 'Private pints' }, await photos(3));
    const friendsCard = await card(friend, id);
    expect(friendsCard.photos).toHaveLength(3);
    expect((await publicList(friend, author.id))[0]?.photos).toHaveLength(3);

    expect((await stranger.get(`/api/sessions/${id}`)).statusCode).toBe(404);
    expect((await stranger.get(`/api/users/${author.id}/sessions`)).statusCode).toBe(403);
    expect(ok<FeedSession[]>(await stranger.get('/api/sessions')).map((s) => s.id)).not.toContain(id);
    // Even a URL signed for the stranger (as if one leaked) is refused by media, which re-checks the author's privacy.
    const urls = new PhotoUrls(new FileSignature(t.config.FILE_URL_SECRET, t.config.FILE_URL_TTL_SECONDS, () => new Date()));
    await eventually(async () => {
      for (const url of friendsCard.photos) {
        const forStranger = urls.forViewer(pathOf(url), stranger.id) ?? '';
        if ((await fetch(`${t.media.url}${forStranger}`)).status !== 404) return false;
      }
      return true;
    }, 'media refuses the stranger');
    for (const url of friendsCard.photos) expect((await fetch(`${t.media.url}${url}`)).status).toBe(200);
  });
});

/** Media's orphan sweep asks which stored session photos a session still names (issue 38, item 6): the rest it deletes. */
describe('which stored photos a session names', () => {
  const ask = (keys: unknown) => t.app.inject({ method: 'POST', url: '/internal/photos/named', payload: { keys } });
  const named = async (keys: string[]): Promise<string[]> => {
    const res = await ask(keys);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { named: string[] }).named;
  };
  /** A photo's key in the bucket: its stored path less the files prefix. */
  const keyOf = (url: string) => pathOf(url).replace(/^\/api\/media\/files\//, '');

  it("answers the keys a session names, never those an edit replaced, a deleted session held, another owner's or an unscoped key", async () => {
    const author = await t.user();
    const kept = ok<FeedSession>(await author.form('POST', '/api/sessions', { title: 'Kept' }, await photos(2)), 201);
    const edited = ok<FeedSession>(await author.form('POST', '/api/sessions', { title: 'Edited' }, await photos(2)), 201);
    const replaced = ok<FeedSession>(await author.form('PUT', `/api/sessions/${edited.id}`, {}, await photos(1)));
    const gone = ok<FeedSession>(await author.form('POST', '/api/sessions', { title: 'Gone' }, await photos(1)), 201);
    expect((await author.delete(`/api/sessions/${gone.id}`)).statusCode).toBe(204);
    // A row logged before the list: its photo only in the one `photo` column.
    const old = ok<FeedSession>(await author.form('POST', '/api/sessions', { title: 'Old row' }, await photos(1)), 201);
    await t.prisma.beerSession.update({ where: { id: old.id }, data: { photos: [] } });

    const live = [...kept.photos, ...replaced.photos, old.photo ?? ''].map(keyOf);
    const dead = [...edited.photos, ...gone.photos].map(keyOf);
    // A kept photo's id under someone else's folder, an unscoped key of older uploads, a key of no kind.
    const [first] = live;
    const foreign = [first?.replace(author.id, randomUUID()) ?? '', `uploads/${randomUUID()}.webp`, 'misc/readme.txt'];
    expect(live).toHaveLength(4);
    expect(new Set(live).size).toBe(4);
    expect((await named([...dead, ...foreign, ...live])).sort()).toEqual([...live].sort());
    expect(await named([])).toEqual([]);
  });

  it(`refuses what is not a list of at most ${NAMED_PHOTOS_MAX} keys with 400 naming keys`, async () => {
    for (const bad of [undefined, 'uploads/x.webp', [42], Array.from({ length: NAMED_PHOTOS_MAX + 1 }, (_, i) => `k${i}`)]) {
      const res = await ask(bad);
      expect(res.statusCode, JSON.stringify(bad)?.slice(0, 40)).toBe(400);
      expect(res.json().field ?? res.json().message).toMatch(/keys/);
    }
  });
});
