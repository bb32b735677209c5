import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startProcess, type RunningProcess } from '@hoptrack/testing/processes';
import { createThumbnailQueue } from '../src/workers/thumbnails/queue';
import { jpegWithGps } from './images';
import { multipart } from './multipart';
import { startTestMedia, type TestMedia } from './support';

/**
 * The real worker process: a job whose worker is SIGKILLed mid-way is taken
 * up again after its lock lapses and completes exactly once.
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

  it('finishes a job after the worker died in the middle of it, once', async () => {
    const owner = randomUUID();
    const headers = await media.bearer(owner);
    const album = (await media.app.inject({ method: 'POST', url: '/api/albums', headers, payload: { name: 'Crash test' } })).json();
    const body = multipart([{ name: 'photos', filename: 'slow.jpg', contentType: 'image/jpeg', value: await jpegWithGps() }]);
    const upload = await media.app.inject({ method: 'POST', url: `/api/albums/${album.id}/photos`, headers: { ...headers, ...body.headers }, payload: body.payload });
    const photoId: string = upload.json()[0].id;
    await media.relay.drain();

    // First worker: takes the job, then stalls inside it (fault injection) and is killed.
    const first = await startWorker({ THUMBNAIL_FAULT_DELAY_MS: '60000' });
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
      for (let i = 0; i < 200 && (await queue.getJobState(photoId)) !== 'active'; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await queue.getJobState(photoId)).toBe('active');
    } finally {
      await queue.close();
    }
    expect(await statusOf(photoId)).toBe('processing');
    await first.stop('SIGKILL');

    // Second worker: finds the stalled job once its lock lapses and completes it.
    await startWorker({});
    for (let i = 0; i < 200 && (await statusOf(photoId)) === 'processing'; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await statusOf(photoId)).toBe('ready');

    await new Promise((r) => setTimeout(r, 500));
    const processed = (await media.events('media.photo.processed.v1')).filter((e) => e.data.photoId === photoId);
    expect(processed).toHaveLength(1);
    const photo = await media.prisma.photo.findUniqueOrThrow({ where: { id: photoId } });
    expect(await media.store.getBuffer(photo.thumbnailKey!)).not.toBeNull();
    // No orphans: the killed run and the finished one wrote the same keys (derived from the photo id), nothing else.
    const stored = (await Promise.all(['originals', 'thumbs', 'display'].map((area) => media.store.list(`${area}/${owner}/`)))).flat().sort();
    expect(stored).toEqual([photo.filename, photo.thumbnailKey, photo.url].sort());
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
