import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Album } from '@hoptrack/proto';
import {
  EXPORTING_SERVICES,
  exportPartName,
  exportParts,
  FILES_PREFIX,
  FileSignature,
  Outbox,
  type ExportingService,
} from '@hoptrack/runtime';
import { consumersSettled, eventually, memoryLogger, publishEvent, readEvents, testUserSnapshot } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { albumFolder } from '../src/domain/export';
import { ExportAssembler, exportKey, isOwnFile, safeZipPath } from '../src/exports/assembler';
import { deleteExpiredExports } from '../src/exports/expiry';
import { zipBuffer, zipSize, type ZipEntry } from '../src/exports/zip';
import { jpegWithGps, png } from './images';
import { multipart } from './multipart';
import { startTestMedia, type TestMedia } from './support';

/**
 * Issue 24, data export: media contributes its part (albums, photos, the
 * profile picture, their originals) and assembles the zip once every
 * service's part is in: one `<service>.json` per part, README.txt, and each
 * listed file that is the person's own, copied byte for byte; stored at
 * exports/<user>/<export>.zip, announced by user.export.ready.v1, served only
 * on a signed URL made for its owner, built once, and gone with an erasure.
 */
const run = promisify(execFile);
let media: TestMedia;
let scratch: string;
const logger = memoryLogger('media-export').logger;

beforeAll(async () => {
  // Every consumer of the definition: the export part and the assembler, with the erasure and the audience beside them.
  media = await startTestMedia({ consumers: 'all' });
  scratch = await mkdtemp(path.join(tmpdir(), 'media-export-'));
});
afterAll(async () => {
  await media?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const settled = () =>
  consumersSettled(media.bus, [
    { stream: 'USERS', durable: `${media.config.READ_MODEL_CONSUMER}-export` },
    { stream: 'USERS', durable: `${media.config.READ_MODEL_CONSUMER}-export-assembly` },
  ]);

const readyEvents = async (exportId: string) => {
  await media.relay.drain();
  return (await readEvents(media.bus, 'USERS', 'user.export.ready.v1')).filter((e) => e.data.exportId === exportId);
};

interface ZipReport {
  test: string | null;
  names: string[];
  sha256: Record<string, string>;
  text: Record<string, string>;
}

/** What Python's zipfile makes of an archive: its CRC check, its names, and each entry read back. */
async function inspect(zip: Buffer): Promise<ZipReport> {
  const file = path.join(scratch, `${randomUUID()}.zip`);
  await writeFile(file, zip);
  const script = [
    'import hashlib, json, sys, zipfile',
    'z = zipfile.ZipFile(sys.argv[1])',
    'names = z.namelist()',
    'out = {"test": z.testzip(), "names": names, "sha256": {}, "text": {}}',
    'for n in names:',
    '    data = z.read(n)',
    '    out["sha256"][n] = hashlib.sha256(data).hexdigest()',
    '    if n.endswith((".json", ".txt")): out["text"][n] = data.decode("utf-8")',
    'print(json.dumps(out))',
  ].join('\n');
  const { stdout } = await run('python3', ['-c', script, file]);
  return JSON.parse(stdout) as ZipReport;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

const as = async (userId: string) => {
  const headers = await media.bearer(userId);
  return {
    post: (url: string, payload?: object) => media.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) }),
    upload: (albumId: string, name: string, data: Buffer) => {
      const body = multipart([{ name: 'photos', filename: name, contentType: 'image/jpeg', value: data }]);
      return media.app.inject({ method: 'POST', url: `/api/albums/${albumId}/photos`, headers: { ...headers, ...body.headers }, payload: body.payload });
    },
  };
};

/** A person with an album of one photo (images of `width`, so two people's bytes differ) (its original kept to compare), a profile picture recorded by auth, and a session photo. */
async function personWithFiles(userId: string, albumName: string, width: number) {
  await publishEvent(media.bus, 'user.registered.v1', testUserSnapshot(userId));
  const client = await as(userId);
  const album = (await client.post('/api/albums', { name: albumName, description: 'Summer trip' })).json() as Album;
  const original = await jpegWithGps(width, 240);
  const uploaded = await client.upload(album.id, 'tripel.jpg', original);
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const photoId = (uploaded.json() as Array<{ id: string }>)[0]?.id ?? '';
  const link = (await client.post('/api/profile-picture/upload')).json().uploadURL as string;
  const avatar = await media.app.inject({ method: 'PUT', url: link, payload: await png(width / 5, 64), headers: { 'content-type': 'image/png' } });
  expect(avatar.statusCode, avatar.body).toBe(200);
  const avatarUrl = avatar.json().url as string;
  // auth records the picture and announces it; the audience keeps it.
  await publishEvent(media.bus, 'user.updated.v1', testUserSnapshot(userId, { profilePicture: avatarUrl, updatedAt: new Date(Date.now() + 1000) }));
  await eventually(async () => {
    const rows = await media.prisma.$queryRawUnsafe<Array<{ p: string | null }>>('SELECT profile_picture AS p FROM users WHERE id = $1::uuid', userId);
    return rows[0]?.p === avatarUrl;
  }, 'the profile picture in the audience');
  const body = multipart([
    { name: 'ownerId', value: userId },
    { name: 'file', filename: 'session.jpg', contentType: 'image/jpeg', value: await jpegWithGps(width - 100, 150) },
  ]);
  const session = await media.app.inject({ method: 'POST', url: '/internal/uploads', headers: body.headers, payload: body.payload });
  expect(session.statusCode, session.body).toBe(201);
  const sessionKey = (session.json().url as string).replace(FILES_PREFIX, '').split('?')[0] ?? '';
  return { album: album.id, photoId, original, avatarKey: avatarUrl.replace(FILES_PREFIX, ''), sessionKey };
}

/** The part another service would have written, and its report. */
async function contribute(exportId: string, userId: string, service: ExportingService, data: unknown, files: Array<{ path: string; key: string }> = []) {
  const store = await exportParts(media.bus);
  await store.putBlob({ name: exportPartName(exportId, service) }, new TextEncoder().encode(JSON.stringify({ service, data, files })));
  return publishEvent(media.bus, 'user.export.contributed.v1', { exportId, userId, service });
}

const partsLeft = async (exportId: string) => {
  const store = await exportParts(media.bus);
  const left: string[] = [];
  for (const service of EXPORTING_SERVICES) {
    const info = await store.info(exportPartName(exportId, service));
    if (info && !info.deleted) left.push(service);
  }
  return left;
};

const download = (url: string) => media.app.inject({ method: 'GET', url });

describe('a data export', () => {
  it('is assembled once from every part, with the person’s own files only, and served on a signed URL', async () => {
    const [ann, bob] = [randomUUID(), randomUUID()];
    const annFiles = await personWithFiles(ann, 'Brewery tour: Belgium/2026', 320);
    const bobFiles = await personWithFiles(bob, 'Bob’s', 330);
    const exportId = randomUUID();

    await publishEvent(media.bus, 'user.export.requested.v1', { exportId, userId: ann });
    const others = EXPORTING_SERVICES.filter((s) => s !== 'media');
    for (const service of others) {
      const files =
        service === 'sessions'
          ? [
              { path: 'session-photos/one-1.webp', key: annFiles.sessionKey },
              // Another person's files, listed by mistake (or malice): never copied.
              { path: 'session-photos/not-mine.jpg', key: `originals/${bob}/${bobFiles.photoId}` },
              { path: 'session-photos/not-mine-either.webp', key: bobFiles.sessionKey },
              { path: 'traversal.jpg', key: `originals/${ann}/../${bob}/${bobFiles.photoId}` },
              // A path trying to leave the archive's folder lands inside it.
              { path: '../../../etc/passwd-like.webp', key: annFiles.sessionKey },
              // Gone since: skipped.
              { path: 'session-photos/gone.webp', key: `uploads/${ann}/${randomUUID()}.webp` },
            ]
          : [];
      await contribute(exportId, ann, service, { service, owner: ann, note: 'Grüße ✓' }, files);
    }
    await eventually(async () => (await readyEvents(exportId)).length === 1, 'user.export.ready.v1');
    const [ready] = await readyEvents(exportId);
    const key = exportKey(ann, exportId);
    expect(ready?.data).toEqual({ exportId, userId: ann, key, expiresAt: expect.any(String), size: expect.any(Number) });
    expect(await media.store.list(`exports/${ann}/`)).toEqual([key]);
    expect(await partsLeft(exportId)).toEqual([]);

    // Served on a URL signed for its owner: a download, byte for byte what was announced.
    const signature = new FileSignature(media.config.FILE_URL_SECRET, 300, media.clock.now);
    const url = signature.url(key, ann);
    const served = await download(url);
    expect(served.statusCode, served.body).toBe(200);
    expect(served.headers['content-type']).toBe('application/zip');
    expect(served.headers['content-disposition']).toBe('attachment; filename="hoptrack-export.zip"');
    expect(served.headers['cache-control']).toBe('private, no-store');
    const zip = served.rawPayload;
    expect(zip.length).toBe(ready?.data.size);

    const report = await inspect(zip);
    expect(report.test).toBeNull();
    const photoPath = `photos/${albumFolder('Brewery tour: Belgium/2026')}/${annFiles.photoId}.jpg`;
    expect(photoPath).toBe(`photos/Brewery tour_ Belgium_2026/${annFiles.photoId}.jpg`);
    expect(report.names.sort()).toEqual(
      ['README.txt', ...EXPORTING_SERVICES.map((s) => `${s}.json`), photoPath, 'profile-picture.webp', 'session-photos/one-1.webp', 'etc/passwd-like.webp'].sort(),
    );
    // The original as uploaded, the profile picture and the session photo, byte for byte.
    expect(report.sha256[photoPath]).toBe(sha256(annFiles.original));
    expect(report.sha256['profile-picture.webp']).toBe(sha256((await media.store.getBuffer(annFiles.avatarKey)) ?? Buffer.alloc(0)));
    expect(report.sha256['session-photos/one-1.webp']).toBe(sha256((await media.store.getBuffer(annFiles.sessionKey)) ?? Buffer.alloc(0)));
    // Nothing of Bob's: none of his files' bytes are in the archive.
    const bobHashes = [await media.store.getBuffer(`originals/${bob}/${bobFiles.photoId}`), await media.store.getBuffer(bobFiles.sessionKey)].map((b) => sha256(b ?? Buffer.alloc(0)));
    expect(Object.values(report.sha256).filter((h) => bobHashes.includes(h))).toEqual([]);

    // media.json: the album, its photo's details, the profile picture, with ISO dates.
    const mediaPart = JSON.parse(report.text['media.json'] ?? 'null') as { albums: Array<Record<string, unknown>>; profilePicture: unknown };
    expect(mediaPart).toEqual({
      albums: [
        {
          id: annFiles.album,
          name: 'Brewery tour: Belgium/2026',
          description: 'Summer trip',
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          updatedAt: expect.any(String),
          photos: [expect.objectContaining({ id: annFiles.photoId, originalName: 'tripel.jpg', mimeType: 'image/jpeg', file: photoPath })],
        },
      ],
      profilePicture: { file: 'profile-picture.webp' },
    });
    expect(report.text['media.json']).not.toContain(bob);
    // The other parts' data, pretty-printed.
    for (const service of others) expect(JSON.parse(report.text[`${service}.json`] ?? 'null')).toEqual({ service, owner: ann, note: 'Grüße ✓' });
    expect(report.text['sessions.json']).toContain('\n  "service"');
    expect(report.text['README.txt']).toContain('1 listed file was deleted before the export was made');

    // Not served without a valid signature for its owner, nor publicly, nor once expired.
    const [pathOnly, query] = url.split('?');
    expect((await download(pathOnly ?? '')).statusCode).toBe(404);
    expect((await download(`${pathOnly}?${(query ?? '').replace(/sig=[^&]+/, 'sig=AAAA')}`)).statusCode).toBe(404);
    expect((await download(signature.url(key, bob))).statusCode).toBe(404);
    expect((await download(signature.url(`exports/${bob}/${exportId}.zip`, ann))).statusCode).toBe(404);
    expect((await download(url.replace(exportId, randomUUID()))).statusCode).toBe(404);
    media.clock.advance(2 * 60 * 60 * 1000);
    expect((await download(url)).statusCode).toBe(404);
    expect((await download(new FileSignature(media.config.FILE_URL_SECRET, 300, media.clock.now).url(key, ann))).statusCode).toBe(200);

    // A contribution delivered again (a new envelope, as a replay would bring): no second zip, no second event.
    const before = await media.store.list('exports/');
    await publishEvent(media.bus, 'user.export.contributed.v1', { exportId, userId: ann, service: 'places' });
    await publishEvent(media.bus, 'user.export.requested.v1', { exportId, userId: ann });
    await settled();
    await media.relay.drain();
    expect(await readyEvents(exportId)).toHaveLength(1);
    expect(await media.store.list('exports/')).toEqual(before);
    expect(await partsLeft(exportId)).toEqual([]);
    const rows = await media.prisma.exportAssembly.findMany({ where: { exportId } });
    expect(rows).toMatchObject([{ userId: ann, status: 'done', key, size: BigInt(zip.length) }]);
    expect([...(rows[0]?.services ?? [])].sort()).toEqual([...EXPORTING_SERVICES].sort());
  });

  it('two replicas taking the last part at once build one zip', async () => {
    const carl = randomUUID();
    await publishEvent(media.bus, 'user.registered.v1', testUserSnapshot(carl));
    const exportId = randomUUID();
    const replicas = [0, 1].map(
      () => new ExportAssembler({ bus: media.bus, prisma: media.prisma, store: media.store, outbox: new Outbox(media.config.BUS_NAMESPACE), onEventsCommitted: () => media.relay.poke(), logger, ttlMs: 3600_000 }),
    );
    const store = await exportParts(media.bus);
    for (const service of EXPORTING_SERVICES) {
      await store.putBlob({ name: exportPartName(exportId, service) }, new TextEncoder().encode(JSON.stringify({ service, data: { n: 1 }, files: [] })));
    }
    for (const service of EXPORTING_SERVICES.slice(0, -1)) expect(await replicas[0]?.contributed(exportId, carl, service)).toBe('recorded');
    const last = EXPORTING_SERVICES[EXPORTING_SERVICES.length - 1] ?? 'challenges';
    const outcomes = await Promise.all(replicas.map((r) => r.contributed(exportId, carl, last)));
    expect(outcomes.sort()).toEqual(['assembled', 'recorded']);
    expect(await replicas[1]?.contributed(exportId, carl, last)).toBe('recorded');
    expect(await readyEvents(exportId)).toHaveLength(1);
    // A contribution naming someone else than the export's owner, or from no exporting service: ignored.
    expect(await replicas[0]?.contributed(exportId, randomUUID(), 'media')).toBe('ignored');
    expect(await replicas[0]?.contributed(exportId, carl, 'billing')).toBe('ignored');
  });

  it('goes with the person’s erasure: the zip, the rows, the parts still waiting', async () => {
    const dora = randomUUID();
    await publishEvent(media.bus, 'user.registered.v1', testUserSnapshot(dora));
    const done = randomUUID();
    for (const service of EXPORTING_SERVICES) await contribute(done, dora, service, { service });
    await eventually(async () => (await readyEvents(done)).length === 1, 'the first export ready');
    const waiting = randomUUID();
    await contribute(waiting, dora, 'auth', { service: 'auth' });
    await settled();
    expect(await media.store.list(`exports/${dora}/`)).toEqual([exportKey(dora, done)]);
    expect(await partsLeft(waiting)).toEqual(['auth']);

    await publishEvent(media.bus, 'user.deleted.v1', { userId: dora });
    await eventually(async () => (await media.store.list(`exports/${dora}/`)).length === 0, 'the zip removed');
    await eventually(async () => (await media.prisma.exportAssembly.count({ where: { userId: dora } })) === 0, 'the rows removed');
    expect(await partsLeft(waiting)).toEqual([]);
    // A part arriving after the erasure records nothing and is removed.
    await contribute(waiting, dora, 'sessions', { service: 'sessions' });
    await settled();
    expect(await media.prisma.exportAssembly.count({ where: { userId: dora } })).toBe(0);
    expect(await partsLeft(waiting)).toEqual([]);
  });
});

describe('a person’s zips (issue 39, finding 9)', () => {
  const built = async (userId: string) => {
    const exportId = randomUUID();
    for (const service of EXPORTING_SERVICES) await contribute(exportId, userId, service, { service });
    await eventually(async () => (await readyEvents(exportId)).length === 1, 'the export ready');
    return exportId;
  };

  it('are one at a time: a new export’s zip replaces the earlier one, and one past its lifetime goes in the worker’s pass', async () => {
    const erin = randomUUID();
    await publishEvent(media.bus, 'user.registered.v1', testUserSnapshot(erin));
    const first = await built(erin);
    expect(await media.store.list(`exports/${erin}/`)).toEqual([exportKey(erin, first)]);
    const [ready] = await readyEvents(first);
    // The lifetime is media's (EXPORT_TTL_HOURS), told to auth with the zip.
    expect(Date.parse(ready?.data.expiresAt ?? '') - Date.parse(ready?.occurredAt ?? '')).toBeGreaterThan(47 * 3600_000);

    const second = await built(erin);
    // Before: both zips stayed for their 48 hours (seven exports in a row kept seven copies of every photo).
    await eventually(async () => (await media.store.list(`exports/${erin}/`)).join() === exportKey(erin, second), 'the earlier zip deleted');
    expect((await media.prisma.exportAssembly.findMany({ where: { userId: erin } })).map((row) => row.exportId)).toEqual([second]);

    // Past its lifetime it goes by its row, and the row with it: the step the worker's sweep starts
    // with (run here for Erin alone: a whole pass dated two days on would judge every test's objects).
    expect(await deleteExpiredExports(media.prisma, media.store, new Date(Date.now() + 47 * 3600_000), erin)).toBe(0);
    expect(await media.store.list(`exports/${erin}/`)).toEqual([exportKey(erin, second)]);
    expect(await deleteExpiredExports(media.prisma, media.store, new Date(Date.now() + 49 * 3600_000), erin)).toBe(1);
    expect(await media.store.list(`exports/${erin}/`)).toEqual([]);
    expect(await media.prisma.exportAssembly.count({ where: { userId: erin } })).toBe(0);
  });
});

describe('the zip writer', () => {
  const entry = (name: string, data: Buffer, modified = new Date('2026-03-04T05:06:08Z')): ZipEntry => ({ name, size: data.length, modified, load: async () => data });

  it('writes archives zipfile reads back, with UTF-8 names, empty entries, and ZIP64 records', async () => {
    const photo = await jpegWithGps(100, 80);
    const entries = [entry('README.txt', Buffer.from('hello\n')), entry('photos/Grüße ✓/ä.jpg', photo), entry('empty.json', Buffer.alloc(0)), entry('old.txt', Buffer.from('x'), new Date('1970-01-01T00:00:00Z'))];
    for (const zip64 of [false, true]) {
      const zip = await zipBuffer(entries, { zip64 });
      expect(zip.length).toBe(zipSize(entries, { zip64 }));
      const report = await inspect(zip);
      expect(report.test).toBeNull();
      expect(report.names).toEqual(['README.txt', 'photos/Grüße ✓/ä.jpg', 'empty.json', 'old.txt']);
      expect(report.sha256['photos/Grüße ✓/ä.jpg']).toBe(sha256(photo));
      expect(report.text['README.txt']).toBe('hello\n');
      expect(report.text['empty.json']).toBe('');
    }
    const none = await zipBuffer([]);
    expect(none.length).toBe(zipSize([]));
    expect((await inspect(none)).names).toEqual([]);
    await expect(zipBuffer([{ ...entry('a', Buffer.from('abc')), size: 2 }])).rejects.toThrow(/not the 2 declared/);
  });

  it('keeps paths inside the archive and copies only the person’s own keys', () => {
    const id = randomUUID();
    expect(safeZipPath('../../a/./b\\c.jpg')).toBe('a/b/c.jpg');
    expect(safeZipPath('/..')).toBeNull();
    expect(isOwnFile(id, `originals/${id}/${randomUUID()}`)).toBe(true);
    expect(isOwnFile(id, `uploads/${id}/${randomUUID()}.webp`)).toBe(true);
    expect(isOwnFile(id, `avatars/${id}/${randomUUID()}.webp`)).toBe(true);
    expect(isOwnFile(id, `thumbs/${id}/${randomUUID()}.webp`)).toBe(false);
    expect(isOwnFile(id, `originals/${randomUUID()}/${randomUUID()}`)).toBe(false);
    expect(isOwnFile(id, `originals/${id}/../x`)).toBe(false);
    expect(isOwnFile(id, `exports/${id}/${randomUUID()}.zip`)).toBe(false);
    expect(albumFolder(' ..Trip/2026: "best"? ')).toBe('Trip_2026_ _best__');
    expect(albumFolder('...')).toBe('album');
  });
});
