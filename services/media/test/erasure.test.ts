import { randomUUID } from 'node:crypto';
import type { Album } from '@hoptrack/proto';
import { audienceDurables, Outbox } from '@hoptrack/runtime';
import { consumersSettled, eventually, memoryLogger, publishEvent, readEvents, testUserSnapshot } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photoKeys } from '../src/domain/albums';
import { renderPhotoVersions } from '../src/images/images';
import { processPhoto } from '../src/workers/thumbnails/process-photo';
import { jpegWithGps, png } from './images';
import { multipart } from './multipart';
import { startTestMedia, type TestMedia } from './support';

/**
 * Issue 24: on user.deleted.v1 media erases every file of the person
 * (album originals, thumbnails, display versions, profile pictures, the
 * session photos stored as theirs) and their albums and photos, then
 * reports user.erased.v1. Nothing of anyone else goes, and nothing of the
 * person comes back: not by a replay, a late event, an upload link handed
 * out before, or a thumbnail the worker was rendering meanwhile.
 */
let media: TestMedia;
beforeAll(async () => {
  // The definition's own erasure consumer, beside the audience's.
  media = await startTestMedia({ consumers: ['audience', 'erasure'] });
});
afterAll(async () => {
  await media?.close();
});

const durables = () => [
  { stream: 'USERS' as const, durable: audienceDurables(media.config.READ_MODEL_CONSUMER).people.durable },
  { stream: 'USERS' as const, durable: `${media.config.READ_MODEL_CONSUMER}-erasure` },
  { stream: 'SOCIAL' as const, durable: audienceDurables(media.config.READ_MODEL_CONSUMER).graph.durable },
];
const settled = () => consumersSettled(media.bus, durables());

const as = async (userId: string) => {
  const headers = await media.bearer(userId);
  return {
    get: (url: string) => media.app.inject({ method: 'GET', url, headers }),
    post: (url: string, payload?: object) => media.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) }),
    upload: (albumId: string, names: string[]) =>
      Promise.all(names.map(async (name) => ({ name: 'photos', filename: name, contentType: 'image/jpeg', value: await jpegWithGps(320, 240) }))).then((parts) => {
        const body = multipart(parts);
        return media.app.inject({ method: 'POST', url: `/api/albums/${albumId}/photos`, headers: { ...headers, ...body.headers }, payload: body.payload });
      }),
  };
};

/** A person with an album of processed photos, one photo still processing, a profile picture and a session photo. */
async function personWithFiles(userId: string) {
  const client = await as(userId);
  const album = (await client.post('/api/albums', { name: 'Brewery tour' })).json() as Album;
  const uploaded = await client.upload(album.id, ['one.jpg', 'two.jpg', 'three.jpg']);
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const [one, two, three] = (uploaded.json() as Array<{ id: string }>).map((p) => p.id);
  if (!one || !two || !three) throw new Error('three photos expected');
  expect(await media.process(one)).toBe('ready');
  expect(await media.process(two)).toBe('ready');
  const link = (await client.post('/api/profile-picture/upload')).json().uploadURL as string;
  const avatar = await media.app.inject({ method: 'PUT', url: link, payload: await png(), headers: { 'content-type': 'image/png' } });
  expect(avatar.statusCode, avatar.body).toBe(200);
  const session = await internalUpload(userId);
  expect(session.statusCode, session.body).toBe(201);
  return { album: album.id, ready: [one, two], processing: three, avatar: avatar.json().url as string, sessionPhoto: session.json().url as string };
}

async function internalUpload(ownerId: string) {
  const body = multipart([
    { name: 'ownerId', value: ownerId },
    { name: 'file', filename: 'session.jpg', contentType: 'image/jpeg', value: await jpegWithGps(200, 150) },
  ]);
  return media.app.inject({ method: 'POST', url: '/internal/uploads', headers: body.headers, payload: body.payload });
}

const allObjects = () => media.store.list('');
const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Every row of every table of the service's database whose text holds one of the needles. */
async function rowsNaming(...needles: string[]): Promise<string[]> {
  const tables = await media.prisma.$queryRawUnsafe<Array<{ name: string }>>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name !~ 'migrations$' ORDER BY 1`,
  );
  expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['photo_albums', 'photos', 'users', 'follows', 'blocks', 'outbox', 'erased_people']));
  const hits: string[] = [];
  for (const { name } of tables) {
    const rows = await media.prisma.$queryRawUnsafe<Array<{ row: string }>>(`SELECT t::text AS row FROM "${name}" t WHERE t::text ILIKE ANY($1::text[])`, needles.map(like));
    hits.push(...rows.map((r) => `${name}: ${r.row}`));
  }
  return hits;
}

async function tableSizes(): Promise<Record<string, number>> {
  const sizes: Record<string, number> = {};
  for (const name of ['photo_albums', 'photos', 'users', 'follows', 'blocks', 'outbox', 'erased_people']) {
    const [row] = await media.prisma.$queryRawUnsafe<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM "${name}"`);
    sizes[name] = row?.n ?? 0;
  }
  return sizes;
}

const erasedReports = async (userId: string) =>
  (await readEvents(media.bus, 'USERS', 'user.erased.v1')).filter((e) => e.data.userId === userId && e.data.service === 'media');

describe('erasing a deleted account', () => {
  it('removes every file and row of the person, keeps the others whole, and nothing comes back', async () => {
    const [gone, ann] = [randomUUID(), randomUUID()];
    const goneSnapshot = testUserSnapshot(gone);
    for (const id of [gone, ann]) await publishEvent(media.bus, 'user.registered.v1', id === gone ? goneSnapshot : testUserSnapshot(id));
    await publishEvent(media.bus, 'social.friendship.accepted.v1', { friendshipId: randomUUID(), requesterId: gone, recipientId: ann });
    const goneFiles = await personWithFiles(gone);
    const annFiles = await personWithFiles(ann);
    await settled();
    await media.relay.drain();

    const annObjects = (await allObjects()).filter((key) => key.includes(ann));
    // Originals (3), thumbnails and display versions (2 each), the profile picture, the session photo.
    expect(annObjects).toHaveLength(9);
    expect((await allObjects()).filter((key) => key.includes(gone))).toHaveLength(9);
    const needles = [gone, goneSnapshot.email, goneSnapshot.username];
    expect((await rowsNaming(...needles)).length).toBeGreaterThan(4);

    // The worker is rendering one of the person's photos when the account goes: the erasure runs
    // (and reports) during the render; the versions written after it are removed again, not kept.
    const rendering = processPhoto(
      {
        prisma: media.prisma,
        store: media.store,
        outbox: new Outbox(media.config.BUS_NAMESPACE),
        onEventsCommitted: () => media.relay.poke(),
        logger: memoryLogger('media-worker').logger,
        render: async (original) => {
          await publishEvent(media.bus, 'user.deleted.v1', { userId: gone });
          await eventually(async () => (await erasedReports(gone)).length === 1, 'user.erased.v1 from media');
          return renderPhotoVersions(original);
        },
      },
      goneFiles.processing,
    );
    expect(await rendering).toBe('skipped');
    await settled();

    expect((await allObjects()).filter((key) => key.includes(gone))).toEqual([]);
    expect(await media.store.exists(photoKeys(gone, goneFiles.processing).thumbnail)).toBe(false);
    expect(await rowsNaming(...needles)).toEqual([]);

    // Ann keeps everything: her objects, her album with its three photos and its cover, her pictures served.
    expect((await allObjects()).filter((key) => key.includes(ann)).sort()).toEqual(annObjects.sort());
    const annAlbums = (await (await as(ann)).get("/api/albums")).json() as Album[];
    expect(annAlbums).toMatchObject([{ id: annFiles.album, photoCount: 3 }]);
    expect(annAlbums[0]?.coverPhoto).toBeTruthy();
    expect((await media.app.inject({ method: 'GET', url: annFiles.avatar })).statusCode).toBe(200);
    // The person's files are not served any more.
    expect((await media.app.inject({ method: 'GET', url: goneFiles.avatar })).statusCode).toBe(404);

    // The deletion again (a new envelope): reported again, nothing changes.
    const sizes = await tableSizes();
    const objects = (await allObjects()).sort();
    await publishEvent(media.bus, 'user.deleted.v1', { userId: gone });
    await eventually(async () => (await erasedReports(gone)).length === 2, 'second user.erased.v1');
    await settled();
    expect(await tableSizes()).toEqual(sizes);
    expect((await allObjects()).sort()).toEqual(objects);

    // Late events about the person, an upload link handed out before, a session photo sent for them: nothing comes back.
    await publishEvent(media.bus, 'user.updated.v1', { ...goneSnapshot, displayName: 'Back again', updatedAt: new Date(Date.now() + 60_000).toISOString() });
    await publishEvent(media.bus, 'social.friendship.accepted.v1', { friendshipId: randomUUID(), requesterId: ann, recipientId: gone });
    await settled();
    const unused = media.uploads.issue(gone, 600).url; // a link of theirs handed out before the deletion, used after it
    expect((await media.app.inject({ method: 'PUT', url: unused, payload: await png(), headers: { 'content-type': 'image/png' } })).statusCode).toBe(410);
    expect((await internalUpload(gone)).statusCode).toBe(410);
    expect(await processPhoto({ prisma: media.prisma, store: media.store, outbox: new Outbox(media.config.BUS_NAMESPACE), onEventsCommitted: () => undefined, logger: memoryLogger('media-worker').logger }, goneFiles.ready[0] ?? '')).toBe('skipped');
    expect((await allObjects()).sort()).toEqual(objects);
    expect(await rowsNaming(...needles)).toEqual([]);
    expect(await tableSizes()).toEqual(sizes);
  });
});
