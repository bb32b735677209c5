import { randomUUID } from 'node:crypto';
import { audienceRows, eventually, publishEvent } from '@hoptrack/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decompressionBomb, HTML_AS_JPEG, jpegWithGps, png, SVG } from './images';
import { multipart, type Part } from './multipart';
import { startTestMedia, type TestMedia } from './support';

let media: TestMedia;
beforeAll(async () => {
  media = await startTestMedia();
});
afterAll(() => media.close());

const as = async (userId: string) => {
  const headers = await media.bearer(userId);
  return {
    get: (url: string) => media.app.inject({ method: 'GET', url, headers }),
    post: (url: string, payload: object) => media.app.inject({ method: 'POST', url, headers, payload }),
    delete: (url: string) => media.app.inject({ method: 'DELETE', url, headers }),
    upload: (albumId: string, parts: Part[]) => {
      const body = multipart(parts);
      return media.app.inject({ method: 'POST', url: `/api/albums/${albumId}/photos`, headers: { ...headers, ...body.headers }, payload: body.payload });
    },
  };
};

const photoPart = async (name: string, data?: Buffer): Promise<Part> => ({ name: 'photos', filename: name, contentType: 'image/jpeg', value: data ?? (await jpegWithGps(800, 600)) });

async function newAlbum(ownerId: string, name = 'Oktoberfest'): Promise<string> {
  const res = await (await as(ownerId)).post('/api/albums', { name });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

/** The media.photo.deleted.v1 payloads published for an album's photos (the outbox drained first). */
async function deletedEventsOf(albumId: string) {
  return (await media.events('media.photo.deleted.v1')).filter((e) => e.data.albumId === albumId).map((e) => e.data);
}

async function object(key: string): Promise<Buffer | null> {
  return media.store.getBuffer(key);
}

describe('albums', () => {
  it('creates, lists and deletes an album', async () => {
    const owner = randomUUID();
    const id = await newAlbum(owner, '  Brewery tour  ');
    const client = await as(owner);
    expect((await client.get('/api/albums')).json()).toEqual([
      { id, userId: owner, name: 'Brewery tour', description: null, coverPhoto: null, photoCount: 0, createdAt: expect.any(String) },
    ]);
    expect((await client.delete(`/api/albums/${id}`)).statusCode).toBe(204);
    expect((await client.delete(`/api/albums/${id}`)).statusCode).toBe(404);
    expect((await client.get('/api/albums')).json()).toEqual([]);
  });

  it.each([
    [{ name: '' }, 'name', 'Album name is required'],
    [{ name: 'x'.repeat(101) }, 'name', 'Album name must be at most 100 characters'],
    [{}, 'name', 'name is required'],
  ])('refuses %j', async (body, field, message) => {
    const res = await (await as(randomUUID())).post('/api/albums', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field, message });
  });

  it("answers 404 for someone else's album, whatever the action", async () => {
    const id = await newAlbum(randomUUID());
    const stranger = await as(randomUUID());
    expect((await stranger.delete(`/api/albums/${id}`)).statusCode).toBe(404);
    expect((await stranger.upload(id, [await photoPart('a.jpg')])).statusCode).toBe(404);
    expect((await stranger.get(`/api/albums/${randomUUID()}/photos`)).statusCode).toBe(404);
  });
});

describe('photos', () => {
  it('stores originals, makes metadata-free thumbnails, sets the cover, and serves signed URLs', async () => {
    const owner = randomUUID();
    const albumId = await newAlbum(owner);
    const client = await as(owner);
    const res = await client.upload(albumId, [await photoPart('stein.jpg'), await photoPart('pretzel.jpg'), { name: 'description', value: 'Munich' }]);
    expect(res.statusCode).toBe(201);
    const created = res.json() as Array<{ id: string; status: string; url: string | null }>;
    expect(created.map((p) => p.status)).toEqual(['processing', 'processing']);
    expect(created.every((p) => p.url === null)).toBe(true);

    const stored = (await media.events('media.photo.stored.v1')).filter((e) => e.data.albumId === albumId);
    expect(stored.map((e) => e.data.photoId).sort()).toEqual(created.map((p) => p.id).sort());

    for (const p of created) expect(await media.process(p.id)).toBe('ready');
    expect(await media.process(created[0]!.id)).toBe('skipped'); // a second run changes nothing

    const photos = (await client.get(`/api/albums/${albumId}/photos`)).json() as Array<{ id: string; thumbnailUrl: string; url: string; status: string; width: number }>;
    expect(photos.map((p) => p.status)).toEqual(['ready', 'ready']);
    const thumb = await media.app.inject({ method: 'GET', url: photos[0]!.thumbnailUrl });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    const meta = await sharp(thumb.rawPayload).metadata();
    expect([meta.width, meta.height, meta.exif]).toEqual([320, 320, undefined]);
    expect(thumb.rawPayload.includes(Buffer.from('Pocket 9'))).toBe(false);
    expect(thumb.headers['x-content-type-options']).toBe('nosniff');
    // The display version is what a viewer opens: re-encoded too, no EXIF, no GPS.
    const display = await media.app.inject({ method: 'GET', url: photos[0]!.url });
    expect(display.statusCode).toBe(200);
    expect(display.headers['x-content-type-options']).toBe('nosniff');
    expect((await sharp(display.rawPayload).metadata()).exif).toBeUndefined();
    expect(display.rawPayload.includes(Buffer.from('Pocket 9'))).toBe(false);
    expect(display.rawPayload.includes(Buffer.from('GPS'))).toBe(false);
    expect(photos[0]!.width).toBe(600); // turned upright from EXIF orientation 6 (800×600 → 600×800)

    const [album] = (await client.get('/api/albums')).json();
    expect(album).toMatchObject({ photoCount: 2, coverPhoto: expect.stringContaining('/api/media/files/thumbs/') });

    const processed = (await media.events('media.photo.processed.v1')).filter((e) => e.data.albumId === albumId);
    expect(processed).toHaveLength(2);
  });

  it('serves album images only with a valid, unexpired signature', async () => {
    const owner = randomUUID();
    const albumId = await newAlbum(owner);
    const client = await as(owner);
    const [created] = (await client.upload(albumId, [await photoPart('a.jpg')])).json();
    await media.process(created.id);
    const [p] = (await client.get(`/api/albums/${albumId}/photos`)).json();
    const url = new URL(p.thumbnailUrl, 'http://x');
    const get = (u: string) => media.app.inject({ method: 'GET', url: u });
    expect((await get(url.pathname)).statusCode).toBe(404);
    expect((await get(`${url.pathname}?exp=${url.searchParams.get('exp')}&sig=AAAA`)).statusCode).toBe(404);
    expect((await get(p.thumbnailUrl)).statusCode).toBe(200);
    const week = 8 * 24 * 3600 * 1000;
    media.clock.advance(week);
    try {
      expect((await get(p.thumbnailUrl)).statusCode).toBe(404);
    } finally {
      media.clock.advance(-week);
    }
  });

  it('filters by name and description', async () => {
    const owner = randomUUID();
    const albumId = await newAlbum(owner);
    const client = await as(owner);
    await client.upload(albumId, [await photoPart('Stout-night.jpg')]);
    await client.upload(albumId, [await photoPart('lager.jpg'), { name: 'description', value: 'Garden with stouts' }]);
    await client.upload(albumId, [await photoPart('ipa.jpg')]);
    const names = (await client.get(`/api/albums/${albumId}/photos?q=STOUT`)).json().map((p: { originalName: string }) => p.originalName);
    expect(names).toEqual(['Stout-night.jpg', 'lager.jpg']);
    expect((await client.get(`/api/albums/${albumId}/photos?q=%25`)).json()).toEqual([]);
    expect((await client.get(`/api/albums/${albumId}/photos?q=Stout_night`)).json()).toEqual([]);
  });

  it.each([
    ['a text file named .jpg', async () => [{ name: 'photos', filename: 'x.jpg', contentType: 'image/jpeg', value: Buffer.from('hello') }]],
    ['an SVG', async () => [{ name: 'photos', filename: 'x.svg', contentType: 'image/svg+xml', value: SVG }]],
    ['a decompression bomb', async () => [{ name: 'photos', filename: 'bomb.png', contentType: 'image/png', value: decompressionBomb() }]],
    ['a 20,000 × 20,000 PNG', async () => [{ name: 'photos', filename: 'huge.png', contentType: 'image/png', value: decompressionBomb(20_000) }]],
    ['an HTML page named .jpg', async () => [{ name: 'photos', filename: 'page.jpg', contentType: 'image/jpeg', value: HTML_AS_JPEG }]],
    ['eleven images at once', async () => Promise.all(Array.from({ length: 11 }, async (_, i) => ({ name: 'photos', filename: `${i}.png`, contentType: 'image/png', value: await png(8, 8) })))],
    ['no file at all', async () => [{ name: 'description', value: 'nothing' }]],
  ] as Array<[string, () => Promise<Part[]>]>)('refuses %s with 400 and stores nothing', async (_name, parts) => {
    const owner = randomUUID();
    const albumId = await newAlbum(owner);
    const client = await as(owner);
    const res = await client.upload(albumId, await parts());
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('photos');
    expect(await media.prisma.photo.count({ where: { albumId } })).toBe(0);
  });

  it('names the file it refused in a batch', async () => {
    const owner = randomUUID();
    const albumId = await newAlbum(owner);
    const res = await (await as(owner)).upload(albumId, [await photoPart('good.jpg'), { name: 'photos', filename: 'notes.jpg', contentType: 'image/jpeg', value: Buffer.from('text') }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^notes\.jpg: File is not a supported image/);
  });

  it('answers 413 for a photo over 10 MB', async () => {
    const owner = randomUUID();
    const albumId = await newAlbum(owner);
    const res = await (await as(owner)).upload(albumId, [{ name: 'photos', filename: 'big.jpg', contentType: 'image/jpeg', value: Buffer.alloc(11 * 1024 * 1024, 7) }]);
    expect(res.statusCode).toBe(413);
  });

  it('marks an image it cannot decode as failed, with a reason, once', async () => {
    const owner = randomUUID();
    const albumId = await newAlbum(owner);
    const client = await as(owner);
    const whole = await jpegWithGps(1200, 900);
    const truncated = whole.subarray(0, Math.floor(whole.length / 3));
    const res = await client.upload(albumId, [await photoPart('broken.jpg', truncated)]);
    expect(res.statusCode).toBe(201);
    const id = res.json()[0].id;
    expect(await media.process(id)).toBe('failed');
    expect(await media.process(id)).toBe('skipped');
    const [p] = (await client.get(`/api/albums/${albumId}/photos`)).json();
    expect(p).toMatchObject({ status: 'failed', failureReason: expect.stringContaining('could not be decoded'), url: null });
    expect((await media.events('media.photo.failed.v1')).filter((e) => e.data.photoId === id)).toHaveLength(1);
  });

  it('deletes a photo and its objects, moves the cover, and answers 404 the second time', async () => {
    const owner = randomUUID();
    const albumId = await newAlbum(owner);
    const client = await as(owner);
    const created = (await client.upload(albumId, [await photoPart('one.jpg'), await photoPart('two.jpg')])).json() as Array<{ id: string }>;
    for (const p of created) await media.process(p.id);
    const first = await media.prisma.photo.findUniqueOrThrow({ where: { id: created[0]!.id } });
    const album = await media.prisma.photoAlbum.findUniqueOrThrow({ where: { id: albumId } });
    expect(album.coverPhotoUrl).toBe(first.thumbnailKey);

    expect((await (await as(randomUUID())).delete(`/api/photos/${first.id}`)).statusCode).toBe(404);
    expect((await client.delete(`/api/photos/${first.id}`)).statusCode).toBe(204);
    expect((await client.delete(`/api/photos/${first.id}`)).statusCode).toBe(404);
    expect(await object(first.filename)).toBeNull();
    expect(await object(first.thumbnailKey!)).toBeNull();
    const second = await media.prisma.photo.findUniqueOrThrow({ where: { id: created[1]!.id } });
    expect((await media.prisma.photoAlbum.findUniqueOrThrow({ where: { id: albumId } })).coverPhotoUrl).toBe(second.thumbnailKey);
    // One event for the one delete: neither the stranger's 404 nor the second 404 publishes.
    expect(await deletedEventsOf(albumId)).toEqual([{ photoId: first.id, userId: owner, albumId }]);
  });

  it('publishes one media.photo.deleted.v1 when the owner deletes a photo twice at once', async () => {
    const owner = randomUUID();
    const albumId = await newAlbum(owner);
    const client = await as(owner);
    const [photo] = (await client.upload(albumId, [await photoPart('once.jpg')])).json() as Array<{ id: string }>;
    const statuses = await Promise.all([1, 2].map(async () => (await client.delete(`/api/photos/${photo!.id}`)).statusCode));
    expect(statuses.sort()).toEqual([204, 404]);
    expect(await deletedEventsOf(albumId)).toEqual([{ photoId: photo!.id, userId: owner, albumId }]);
  });

  it('deletes every object of an album with it', async () => {
    const owner = randomUUID();
    const albumId = await newAlbum(owner);
    const client = await as(owner);
    const created = (await client.upload(albumId, [await photoPart('a.jpg'), await photoPart('b.jpg')])).json() as Array<{ id: string }>;
    for (const p of created) await media.process(p.id);
    const rows = await media.prisma.photo.findMany({ where: { albumId } });
    const keys = rows.flatMap((r) => [r.filename, r.thumbnailKey!, r.url!]);
    for (const key of keys) expect(await object(key)).not.toBeNull();
    expect((await client.delete(`/api/albums/${albumId}`)).statusCode).toBe(204);
    for (const key of keys) expect(await object(key)).toBeNull();
    expect(await media.prisma.photo.count({ where: { albumId } })).toBe(0);
    // One media.photo.deleted.v1 per photo the album held.
    const deleted = await deletedEventsOf(albumId);
    expect(deleted).toHaveLength(2);
    expect(deleted).toEqual(expect.arrayContaining(created.map((p) => ({ photoId: p.id, userId: owner, albumId }))));
  });

  it("publishes nothing for an album's delete that is refused (someone else's) or for an empty album", async () => {
    const owner = randomUUID();
    const albumId = await newAlbum(owner);
    const [photo] = (await (await as(owner)).upload(albumId, [await photoPart('kept.jpg')])).json() as Array<{ id: string }>;
    expect((await (await as(randomUUID())).delete(`/api/albums/${albumId}`)).statusCode).toBe(404);
    const empty = await newAlbum(owner, 'Empty');
    expect((await (await as(owner)).delete(`/api/albums/${empty}`)).statusCode).toBe(204);
    expect(await deletedEventsOf(albumId)).toEqual([]);
    expect(await deletedEventsOf(empty)).toEqual([]);
    expect(await media.prisma.photo.count({ where: { id: photo!.id } })).toBe(1);
  });
});

describe('privacy of albums (read models from auth and social-graph events)', () => {
  it('shows a private profile’s albums to friends only, and nothing across a block', async () => {
    const [owner, friend, stranger, blocked] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const now = new Date().toISOString();
    await publishEvent(media.bus, 'user.registered.v1', {
      id: owner, email: 'o@example.com', username: `o${Date.now()}`, displayName: 'Owner', bio: null, avatar: null, profilePicture: null,
      isProfilePrivate: true, allowDirectMessages: true, showOnlineStatus: true, tokenVersion: 0, createdAt: now, updatedAt: now,
    });
    await publishEvent(media.bus, 'social.friendship.accepted.v1', { friendshipId: randomUUID(), requesterId: friend, recipientId: owner });
    await publishEvent(media.bus, 'social.user.blocked.v1', { blockerId: owner, blockedId: blocked });
    await eventually(async () => (await audienceRows(media.prisma, 'blocks', { blocker_id: owner })) === 1 && (await audienceRows(media.prisma, 'follows', { followee_id: owner, is_friend: true })) === 1 && (await audienceRows(media.prisma, 'users', { id: owner })) === 1);

    const albumId = await newAlbum(owner);
    const list = async (viewer: string) => (await as(viewer)).get(`/api/albums?userId=${owner}`);
    const photos = async (viewer: string) => (await as(viewer)).get(`/api/albums/${albumId}/photos`);
    expect((await list(owner)).statusCode).toBe(200);
    expect((await list(friend)).json()).toHaveLength(1);
    expect((await photos(friend)).statusCode).toBe(200);
    expect((await list(stranger)).statusCode).toBe(403);
    expect((await photos(stranger)).json().message).toBe('This profile is private');
    expect((await list(blocked)).statusCode).toBe(404);
    expect((await photos(blocked)).statusCode).toBe(404);

    // The friendship ends: the former friend is a stranger again.
    await publishEvent(media.bus, 'social.friendship.removed.v1', { userId: owner, friendId: friend });
    await eventually(async () => (await audienceRows(media.prisma, 'follows', { followee_id: owner, is_friend: true })) === 0);
    expect((await list(friend)).statusCode).toBe(403);
  });
});
