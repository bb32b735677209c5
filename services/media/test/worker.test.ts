import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startProcess, type RunningProcess } from '@hoptrack/testing/processes';
import { eventually } from '@hoptrack/testing';
import { tally } from '@hoptrack/testing/faults';
import { photoKeys } from '../src/domain/albums';
import { createThumbnailQueue } from '../src/workers/thumbnails/queue';
import { jpegWithGps } from './images';
import { multipart } from './multipart';
import { startTestMedia, type TestMedia } from './support';

/**
 * The real worker process: a job whose worker is SIGKILLed at its most
 * dangerous moment (versions written to S3, photo not yet marked ready) is
 * taken up again after its lock lapses and completes once, and the bucket
 * holds no orphan of the killed run.
 */
describe('thumbnail worker process', () => {
  let media: TestMedia;
  const workers: RunningProcess[] = [];
  beforeAll(async () => {
    media = await startTestMedia();
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await media.close();
  });

  const startWorker = async (extra: Record<string, string>) => {
    const worker = await startProcess({
      name: 'media-worker',
      entry: 'services/media/src/workers/thumbnails/main.ts',
      port: await freePort(),
      env: { ...media.env, THUMBNAIL_LOCK_MS: '1500', THUMBNAIL_STALLED_INTERVAL_MS: '500', LOG_LEVEL: 'info', ...extra },
    });
    workers.push(worker);
    return worker;
  };

  const statusOf = async (photoId: string) => (await media.prisma.photo.findUniqueOrThrow({ where: { id: photoId } })).status;

  it('finishes a job after the worker died between its S3 puts and the database update, once, without orphans', { timeout: 120_000 }, async () => {
    const owner = randomUUID();
    const headers = await media.bearer(owner);
    const album = (await media.app.inject({ method: 'POST', url: '/api/albums', headers, payload: { name: 'Crash test' } })).json();
    const body = multipart([{ name: 'photos', filename: 'slow.jpg', contentType: 'image/jpeg', value: await jpegWithGps() }]);
    const upload = await media.app.inject({ method: 'POST', url: `/api/albums/${album.id}/photos`, headers: { ...headers, ...body.headers }, payload: body.payload });
    const photoId: string = upload.json()[0].id;
    const keys = photoKeys(owner, photoId);
    await media.relay.drain();

    // First worker: writes both versions to S3, then holds (fault injection, longer than the test) before the
    // database update; it is killed as soon as both objects are there — the moment a crash could orphan them.
    const first = await startWorker({ THUMBNAIL_FAULT_DELAY_MS: '600000' });
    await eventually(async () => (await media.store.getBuffer(keys.thumbnail)) !== null && (await media.store.getBuffer(keys.display)) !== null, 'both versions in S3', 60_000);
    const queue = createThumbnailQueue({
      redisUrl: media.config.REDIS_URL,
      name: media.config.THUMBNAIL_QUEUE,
      prefix: `${media.config.BUS_NAMESPACE}:bull`,
      attempts: 1,
      concurrency: 1,
      lockMs: 1500,
      stalledIntervalMs: 500,
    });
    try {
      expect(await queue.getJobState(photoId)).toBe('active');
    } finally {
      await queue.close();
    }
    await first.stop('SIGKILL');
    // Precondition of the figure: the objects exist and the photo was never marked.
    expect(await statusOf(photoId)).toBe('processing');

    // Second worker: finds the stalled job once its lock lapses and runs it again from the start.
    const second = await startWorker({});
    await eventually(async () => (await statusOf(photoId)) !== 'processing', 'photo processed after the restart', 60_000);
    expect(await statusOf(photoId)).toBe('ready');
    // Every event of the outbox published (by either relay), then counted on the stream by photo id.
    await eventually(async () => (await media.prisma.$queryRawUnsafe<Array<{ n: number }>>('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL'))[0]?.n === 0, 'outbox drained', 30_000);
    const processed = tally([photoId], (await media.events('media.photo.processed.v1')).map((e) => e.data.photoId));
    const runs = second.lines.filter((line) => line.includes(photoId) && line.includes('thumbnail ready')).length;

    // Objects by key prefix: one per version of the photo, nothing else under the owner's prefixes.
    const photo = await media.prisma.photo.findUniqueOrThrow({ where: { id: photoId } });
    const areas = ['originals', 'thumbs', 'display'] as const;
    const stored = (await Promise.all(areas.map((area) => media.store.list(`${area}/${owner}/`)))).flat();
    const versions = tally(
      areas,
      stored.map((key) => areas.find((area) => key.startsWith(`${area}/${owner}/${photoId}`)) ?? `orphan ${key}`),
    );
    console.info(
      `[figure] thumbnail worker SIGKILLed between its S3 puts and the database update: photo processed ok ${processed.ok}, lost ${processed.lost}, duplicated ${processed.duplicated} (media.photo.processed.v1 by photo id); ` +
        `objects ok ${versions.ok} of ${areas.length}, lost ${versions.lost}, duplicated ${versions.duplicated}, orphans ${versions.unexpected}; the job ran again after the kill (at-least-once; the rerun wrote the same keys, finished ${runs})`,
    );
    expect(processed).toEqual({ ok: 1, lost: 0, duplicated: 0, extraCopies: 0, unexpected: 0 });
    expect(versions).toEqual({ ok: 3, lost: 0, duplicated: 0, extraCopies: 0, unexpected: 0 });
    expect(stored.sort()).toEqual([photo.filename, photo.thumbnailKey, photo.url].sort());
  });

  it('holds more jobs than it renders at once: renders stay within the slots, every photo is processed once', { timeout: 120_000 }, async () => {
    // The earlier tests' workers would share the queue: this one alone takes the jobs.
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    const owner = randomUUID();
    const headers = await media.bearer(owner);
    const album = (await media.app.inject({ method: 'POST', url: '/api/albums', headers, payload: { name: 'Pipeline' } })).json();
    // Photos big enough that a render outlasts the next job's S3 read, so jobs do wait for the slot.
    const photo = await jpegWithGps(3000, 2000);
    const body = multipart(Array.from({ length: 8 }, (_, i) => ({ name: 'photos', filename: `p${i}.jpg`, contentType: 'image/jpeg', value: photo })));
    const upload = await media.app.inject({ method: 'POST', url: `/api/albums/${album.id}/photos`, headers: { ...headers, ...body.headers }, payload: body.payload });
    expect(upload.statusCode).toBe(201);
    const ids: string[] = upload.json().map((p: { id: string }) => p.id);
    await media.relay.drain();

    // One render slot, two jobs held ready beside it: three jobs at once.
    const worker = await startWorker({ THUMBNAIL_CONCURRENCY: '1', THUMBNAIL_PREFETCH: '2', LOG_LEVEL: 'debug' });
    await eventually(async () => (await media.prisma.photo.count({ where: { id: { in: ids }, status: 'ready' } })) === ids.length, 'every photo ready', 60_000);
    // The worker logs a photo's 'thumbnail ready' after its commit: the row can be read before the last line is written.
    const readyLines = () => new Set(worker.lines.filter((line) => line.includes('"thumbnail ready"')).flatMap((line) => ids.filter((id) => line.includes(id)))).size;
    await eventually(async () => readyLines() === ids.length, "every photo's 'thumbnail ready' logged", 30_000);

    const logged = worker.lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { msg?: string; photoId?: string; renders?: { running: number; waiting: number } });
    const renders = logged.filter((l) => l.msg === 'render started').map((l) => l.renders);
    // Each render ran alone in its slot, and at times with jobs already waiting for it (their originals read meanwhile).
    expect(renders).toHaveLength(ids.length);
    expect(renders.every((r) => r?.running === 1)).toBe(true);
    expect(renders.some((r) => (r?.waiting ?? 0) >= 1)).toBe(true);
    const mine = new Set(ids);
    const ready = tally(ids, logged.filter((l) => l.msg === 'thumbnail ready' && mine.has(l.photoId ?? '')).map((l) => l.photoId ?? ''));
    await eventually(async () => (await media.prisma.$queryRawUnsafe<Array<{ n: number }>>('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL'))[0]?.n === 0, 'outbox drained', 30_000);
    const processed = tally(ids, (await media.events('media.photo.processed.v1')).map((e) => e.data.photoId).filter((id) => mine.has(id)));
    expect(ready).toEqual({ ok: ids.length, lost: 0, duplicated: 0, extraCopies: 0, unexpected: 0 });
    expect(processed).toEqual({ ok: ids.length, lost: 0, duplicated: 0, extraCopies: 0, unexpected: 0 });
    // Both versions of every photo in the bucket.
    const stored = new Set([...(await media.store.list(`thumbs/${owner}/`)), ...(await media.store.list(`display/${owner}/`))]);
    const photos = await media.prisma.photo.findMany({ where: { id: { in: ids } } });
    expect(photos.every((p) => p.thumbnailKey !== null && stored.has(p.thumbnailKey) && p.url !== null && stored.has(p.url))).toBe(true);
  });

  it('runs every thread at the configured CPU priority, with the configured libvips threads', async () => {
    const worker = await startWorker({ THUMBNAIL_NICE: '7', THUMBNAIL_SHARP_THREADS: '1' });
    const pid = worker.child.pid as number;
    // Field 19 of /proc/<pid>/task/<tid>/stat is the thread's nice value (counted after the command's ')').
    const niceOf = (tid: string) => {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    };
    const threads = readdirSync(`/proc/${pid}/task`);
    expect(threads.length).toBeGreaterThan(1);
    expect(threads.map(niceOf)).toEqual(threads.map(() => 7));
    const limits = worker.lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { msg?: string; sharpThreads?: number; nice?: number }).find((l) => l.msg === 'thumbnail worker CPU limits');
    expect(limits).toMatchObject({ sharpThreads: 1, nice: 7 });
  });
});
