import { addPhotosResponse, album as albumSchema, PHOTO_MAX_BYTES, PHOTO_PICKER_MAX } from '@hoptrack/proto';
import { loadConfig } from '@hoptrack/runtime';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { commandFor } from '@hoptrack/testing/processes';
import { mediaConfigSchema } from '../../services/media/src/config';
import type { Benchmark, BenchContext } from './lib/context';
import { openLoop } from './lib/load';
import { compare, round, stepSummary, type Section } from './lib/report';

/**
 * 6. Thumbnails. A 12 MP JPEG goes the way a phone's photo goes: multipart
 * upload through the gateway → media API (header check, original to S3,
 * outbox) → media.photo.stored.v1 → BullMQ job → media-worker (S3 get, sharp:
 * 320 px thumbnail and 1600 px display copy, S3 put ×2, status 'ready').
 *
 * - images/s end to end, from the first upload's acceptance to the last photo
 *   ready, beside sharp alone doing the same two resizes (the worker's own
 *   renderPhotoVersions) on the same bytes under the worker's CPU limits
 *   (renders at once, libvips threads, nice; servers/sharp-alone.ts): the
 *   ratio is what the upload, the queue, S3 and the database cost on top of the pixels.
 * - the feed read p99 while the worker is busy, beside the same read while it
 *   is idle: the worker shares the machine with the read path and must not
 *   starve it. Its renders at once (THUMBNAIL_CONCURRENCY), libvips threads per
 *   image (THUMBNAIL_SHARP_THREADS) and CPU priority (THUMBNAIL_NICE) are
 *   capped in services/media/src/config.ts; the figures say whether that holds.
 */

/** A 12 MP photo: the usual size of a phone camera's JPEG. */
const WIDTH = 4000;
const HEIGHT = 3000;
/** Seeded people who upload, side by side, each into an album of their own per batch (albums are in nobody's feed, so the read is unaffected). */
const UPLOADERS = [11, 12, 13, 14];
const FEED_PATH = '/api/sessions?limit=20';

/**
 * A JPEG that compresses like a photo rather than like a flat colour (which
 * would decode and shrink unrealistically fast): smooth gradients, a wave
 * pattern for edges and a little deterministic sensor noise, quality 90. About 3.5 MB.
 */
async function twelveMegapixelJpeg(): Promise<Buffer> {
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
  let state = 1;
  const noise = () => {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    return (state / 0x7fffffff - 0.5) * 24;
  };
  const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const i = (y * WIDTH + x) * 3;
      const n = noise();
      const wave = 40 * Math.sin(x / 37) * Math.cos(y / 53);
      pixels[i] = clamp((x / WIDTH) * 200 + 30 + wave + n);
      pixels[i + 1] = clamp((y / HEIGHT) * 180 + 40 - wave + n);
      pixels[i + 2] = clamp(128 + 60 * Math.sin((x + y) / 120) + n);
    }
  }
  return sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
}

/**
 * The nice values of a process's threads as the kernel sees them (field 19 of
 * /proc/<pid>/task/<tid>/stat): proof the worker's priority setting took, on every
 * thread that does pixels, not only the main one. Null off Linux.
 */
function threadNice(pid: number): { threads: number; min: number; max: number } | null {
  try {
    const nice = readdirSync(`/proc/${pid}/task`).map((tid) => {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    });
    return { threads: nice.length, min: Math.min(...nice), max: Math.max(...nice) };
  } catch {
    return null;
  }
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function createAlbum(baseUrl: string, token: string, name: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/albums`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  if (res.status !== 201) throw new Error(`creating an album answered ${res.status}: ${await res.text()}`);
  return albumSchema.parse(await res.json()).id;
}

/** Up to PHOTO_PICKER_MAX photos in one multipart request, as the web app's FormData sends them (web/src/lib/photosApi.ts). */
async function uploadPhotos(baseUrl: string, token: string, albumId: string, photo: Blob, count: number, tag: string): Promise<string[]> {
  const form = new FormData();
  for (let i = 0; i < count; i++) form.append('photos', photo, `IMG_${tag}_${i}.jpg`);
  const res = await fetch(`${baseUrl}/api/albums/${albumId}/photos`, { method: 'POST', headers: bearer(token), body: form });
  if (res.status !== 201) throw new Error(`uploading ${count} photos answered ${res.status}: ${await res.text()}`);
  return addPhotosResponse.parse(await res.json()).map((p) => p.id);
}

interface Batch {
  photoIds: string[];
  /** Wall-clock ms when the first upload request was answered 201 (the photos are stored and their events on the way). */
  firstAcceptedAt: number;
  /** Seconds from the first request sent to the last answered. */
  uploadSeconds: number;
}

/** Uploads `count` photos: every uploader gets an album and sends its share in requests of up to PHOTO_PICKER_MAX, the uploaders side by side. */
async function uploadBatch(ctx: BenchContext, photo: Blob, count: number, label: string): Promise<Batch> {
  const started = performance.now();
  let firstAcceptedAt = 0;
  const shares = UPLOADERS.map((_, u) => Math.floor(count / UPLOADERS.length) + (u < count % UPLOADERS.length ? 1 : 0));
  const ids = await Promise.all(
    UPLOADERS.map(async (person, u) => {
      const token = await ctx.token(person);
      const albumId = await createAlbum(ctx.stack.baseUrl, token, `Bench ${label} ${person}`);
      const mine: string[] = [];
      for (let left = shares[u] ?? 0; left > 0; left -= PHOTO_PICKER_MAX) {
        mine.push(...(await uploadPhotos(ctx.stack.baseUrl, token, albumId, photo, Math.min(PHOTO_PICKER_MAX, left), `${label}_${person}_${mine.length}`)));
        if (firstAcceptedAt === 0) firstAcceptedAt = Date.now();
      }
      return mine;
    }),
  );
  return { photoIds: ids.flat(), firstAcceptedAt, uploadSeconds: (performance.now() - started) / 1000 };
}

interface Progress {
  ready: number;
  failed: number;
  processing: number;
  /** Wall-clock ms of the last photo's update to ready (the worker's own commit time). */
  lastReadyAt: number | null;
}

async function progress(db: pg.Client, ids: string[]): Promise<Progress> {
  const { rows } = await db.query<{ ready: string; failed: string; processing: string; last: string | null }>(
    `SELECT count(*) FILTER (WHERE status = 'ready') AS ready,
            count(*) FILTER (WHERE status = 'failed') AS failed,
            count(*) FILTER (WHERE status = 'processing') AS processing,
            (EXTRACT(EPOCH FROM max(updated_at) FILTER (WHERE status = 'ready')) * 1000)::text AS last
       FROM photos WHERE id = ANY($1::uuid[])`,
    [ids],
  );
  const row = rows[0];
  if (!row) throw new Error('photos progress query returned nothing');
  return { ready: Number(row.ready), failed: Number(row.failed), processing: Number(row.processing), lastReadyAt: row.last === null ? null : Number(row.last) };
}

/** Polls the media database until every photo of the batch is ready; a failed photo fails the benchmark (its figure would be meaningless). */
async function untilReady(db: pg.Client, ids: string[], timeoutMs: number): Promise<Progress> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const now = await progress(db, ids);
    if (now.failed > 0) throw new Error(`${now.failed} of ${ids.length} photos failed in the thumbnail worker`);
    if (now.ready === ids.length) return now;
    if (performance.now() > deadline) throw new Error(`only ${now.ready} of ${ids.length} photos ready after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * sharp alone: the worker's renderPhotoVersions (same sizes, WebP options,
 * rotation and pixel limit) on a fresh copy of the same bytes each time,
 * `concurrency` images at a time as the worker renders that many at once, in a
 * process of its own under the worker's CPU limits (servers/sharp-alone.ts):
 * the same libvips threads per image and the same nice value on every thread,
 * so that neither side is favoured when something else wants the CPU.
 */
async function sharpAlone(jpeg: Buffer, count: number, limits: { concurrency: number; sharpThreads: number; nice: number }): Promise<{ seconds: number; cpuMs: number }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-sharp-alone-'));
  try {
    const photo = path.join(dir, 'photo.jpg');
    await writeFile(photo, jpeg);
    const [command, ...args] = commandFor('infra/bench/servers/sharp-alone.ts');
    const child = spawn(command ?? process.execPath, args, {
      env: {
        ...process.env,
        SHARP_ALONE_PHOTO: photo,
        SHARP_ALONE_COUNT: String(count),
        SHARP_ALONE_CONCURRENCY: String(limits.concurrency),
        SHARP_ALONE_THREADS: String(limits.sharpThreads),
        SHARP_ALONE_NICE: String(limits.nice),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve, reject) => child.once('error', reject).once('exit', resolve));
    if (code !== 0) throw new Error(`sharp alone exited with ${code}: ${out}`);
    return JSON.parse(out.trim().split('\n').pop() ?? '') as { seconds: number; cpuMs: number };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const benchThumbnails: Benchmark = async (ctx) => {
  const count = ctx.smoke ? 3 : 80;
  // A moderate feed load, well under the read path's capacity: the question is what the worker does to its tail, not where it breaks.
  const readRate = ctx.smoke ? 20 : 50;
  const readSeconds = ctx.smoke ? 1 : 8;

  // The worker's settings as it runs them: the stack's environment over this process's, through its own schema.
  const worker = ctx.stack.services['media-worker'];
  const config = loadConfig('media-worker', mediaConfigSchema, { ...process.env, ...worker.options.env });
  const renderConcurrency = config.THUMBNAIL_CONCURRENCY;
  // Jobs the worker holds at once: its render slots and the jobs ready beside them (S3 and database work).
  const jobConcurrency = config.THUMBNAIL_CONCURRENCY * (1 + config.THUMBNAIL_PREFETCH);
  const sharpThreads = config.THUMBNAIL_SHARP_THREADS;
  const nice = config.THUMBNAIL_NICE;

  const jpeg = await twelveMegapixelJpeg();
  const meta = await sharp(jpeg).metadata();
  if (jpeg.length > PHOTO_MAX_BYTES) throw new Error(`the test photo is ${jpeg.length} bytes, over the ${PHOTO_MAX_BYTES} limit per file`);
  const photo = new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' });
  ctx.log(`thumbnails: ${meta.width}×${meta.height} JPEG of ${(jpeg.length / 1e6).toFixed(1)} MB; worker renders ${renderConcurrency} at once (${jobConcurrency} jobs held), sharp ${sharpThreads} thread(s) per image, nice ${nice}`);

  const token = await ctx.token(ctx.seed.reader);
  // A p99 of error answers would be no figure at all: a read step with errors fails the benchmark.
  const feedRead = async (seconds: number, what: string) => {
    const step = await openLoop(ctx.stack.baseUrl, { rate: readRate, seconds, connections: 16, request: () => ({ path: FEED_PATH, headers: bearer(token) }) });
    if (step.errors > 0) throw new Error(`feed read (${what}): ${step.errors} of ${step.requests} requests failed: ${JSON.stringify(step.statuses)}`);
    return step;
  };

  const db = new pg.Client({ connectionString: ctx.databases.media });
  await db.connect();
  try {
    // 1. The feed read with the worker idle (after a short warm-up of connections and caches).
    await feedRead(Math.min(2, readSeconds), 'warm-up');
    const idle = await feedRead(readSeconds, 'worker idle');
    ctx.log(`thumbnails: feed read at ${readRate}/s, worker idle: p99 ${idle.p99.toFixed(1)} ms`);

    // 2. End to end: K photos uploaded through the gateway until the last is ready.
    ctx.meter.begin();
    const e2e = await uploadBatch(ctx, photo, count, 'e2e');
    const done = await untilReady(db, e2e.photoIds, ctx.smoke ? 60_000 : 240_000);
    const costs = ctx.meter.end(count).map((c) => ({ at: 'thumbnails', ...c }));
    const e2eSeconds = ((done.lastReadyAt ?? Date.now()) - e2e.firstAcceptedAt) / 1000;
    const e2eRate = count / e2eSeconds;
    ctx.log(`thumbnails: ${count} photos end to end in ${e2eSeconds.toFixed(1)} s (uploads ${e2e.uploadSeconds.toFixed(1)} s): ${e2eRate.toFixed(2)} images/s`);

    // 3. sharp alone, with the worker's renders at once, threads and priority.
    const alone = await sharpAlone(jpeg, count, { concurrency: renderConcurrency, sharpThreads, nice });
    const aloneRate = count / alone.seconds;
    ctx.log(`thumbnails: sharp alone ${aloneRate.toFixed(2)} images/s, ${(alone.cpuMs / count).toFixed(0)} CPU ms per image`);

    // 4. The feed read while the worker is busy: a fresh batch all accepted before the reads start, so the
    //    figure is the worker's doing and not the uploads'; sized at the measured rate to outlast the window
    //    by a few seconds (details.feedRead.busyBatch.busyThroughout says whether it did).
    const busyCount = Math.min(ctx.smoke ? 20 : 200, Math.ceil((e2eRate * (readSeconds + 3)) / PHOTO_PICKER_MAX) * PHOTO_PICKER_MAX);
    const busyBatch = await uploadBatch(ctx, photo, busyCount, 'busy');
    const atStart = await progress(db, busyBatch.photoIds);
    const busy = await feedRead(readSeconds, 'worker busy');
    // Read while the worker has its pool and libvips threads running.
    const workerThreads = threadNice(worker.child.pid ?? 0);
    const atEnd = await progress(db, busyBatch.photoIds);
    ctx.log(`thumbnails: feed read at ${readRate}/s, worker busy: p99 ${busy.p99.toFixed(1)} ms (photos waiting: ${atStart.processing} → ${atEnd.processing})`);
    // Leave the stack as found: the next benchmark must not share the machine with this batch.
    await untilReady(db, busyBatch.photoIds, ctx.smoke ? 60_000 : 240_000);

    const workerCost = costs.find((c) => c.process === 'media-worker')?.cpuMsPerRequest ?? null;
    const setting = `${renderConcurrency} render(s) at once, ${jobConcurrency} jobs held, sharp ${sharpThreads} thread(s) per image, nice ${nice}`;
    const section: Section = {
      id: 'thumbnails',
      title: 'Thumbnails',
      comparisons: [
        compare({
          measure: `12 MP JPEG → thumbnail + display, end to end (upload through the gateway, S3 get, sharp, S3 put ×2, ready), ${count} photos`,
          value: round(e2eRate),
          unit: 'images/s',
          reference: `sharp alone (a process of its own), same resizes, ${renderConcurrency} at once, ${sharpThreads} thread(s) per image, nice ${nice}`,
          referenceValue: round(aloneRate),
          note: `first upload accepted → last photo ready in ${round(e2eSeconds, 1)} s; uploads took ${round(e2e.uploadSeconds, 1)} s`,
        }),
        compare({
          measure: `feed read p99 (GET ${FEED_PATH} at ${readRate}/s through the gateway) while the thumbnail worker is busy`,
          value: round(busy.p99),
          unit: 'ms',
          reference: 'the same read with the worker idle',
          referenceValue: round(idle.p99),
          note: `worker: ${setting}; ${atStart.processing} photos waiting when the reads started, ${atEnd.processing} when they ended`,
        }),
        ...(workerCost === null
          ? []
          : [
              compare({
                measure: 'media-worker CPU per image (job, S3, database, outbox, sharp)',
                value: round(workerCost, 1),
                unit: 'CPU ms',
                reference: 'sharp alone, CPU per image',
                referenceValue: round(alone.cpuMs / count, 1),
              }),
            ]),
      ],
      costs,
      details: {
        image: { width: meta.width, height: meta.height, format: meta.format, bytes: jpeg.length },
        machine: { cores: availableParallelism() },
        worker: {
          renderConcurrency,
          jobConcurrency,
          sharpThreadsPerImage: sharpThreads,
          nice,
          // Seen on the running worker: every thread should carry the nice value.
          threadNice: workerThreads,
          // Each render runs its two resizes side by side, each a task on libuv's pool.
          resizesInFlight: renderConcurrency * 2,
          uvThreadpoolSize: Number(worker.options.env.UV_THREADPOOL_SIZE ?? process.env.UV_THREADPOOL_SIZE ?? 4),
        },
        endToEnd: {
          photos: count,
          uploaders: UPLOADERS.length,
          uploadSeconds: round(e2e.uploadSeconds),
          seconds: round(e2eSeconds),
          imagesPerSecond: round(e2eRate),
        },
        sharpAlone: {
          photos: count,
          concurrency: renderConcurrency,
          sharpThreadsPerImage: sharpThreads,
          nice,
          seconds: round(alone.seconds),
          imagesPerSecond: round(aloneRate),
          cpuMsPerImage: round(alone.cpuMs / count, 1),
        },
        feedRead: {
          path: FEED_PATH,
          reader: ctx.seed.reader,
          rate: readRate,
          seconds: readSeconds,
          idle: stepSummary(idle),
          busy: stepSummary(busy),
          busyBatch: {
            photos: busyCount,
            uploadSeconds: round(busyBatch.uploadSeconds),
            waitingAtStart: atStart.processing,
            waitingAtEnd: atEnd.processing,
            // False means the worker ran dry inside the window and the busy figure flatters it.
            busyThroughout: atEnd.processing > 0,
          },
        },
      },
    };
    return section;
  } finally {
    await db.end();
  }
};

