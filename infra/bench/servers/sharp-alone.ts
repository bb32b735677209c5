import { createLogger } from '@hoptrack/runtime';
import { readFileSync } from 'node:fs';
import { applyCpuLimits } from '../../../services/media/src/workers/thumbnails/cpu-limits';
import { renderPhotoVersions } from '../../../services/media/src/images/images';

/**
 * The thumbnail benchmark's reference, in a process of its own so that it runs
 * under the worker's CPU limits exactly as the worker does (the worker's own
 * applyCpuLimits: libvips threads per image and the nice value of every
 * thread): the worker's renderPhotoVersions on a fresh copy of the photo each
 * time (as the worker gets a fresh buffer from S3, so libvips' operation cache
 * cannot answer from an earlier run), SHARP_ALONE_CONCURRENCY at a time, as the
 * worker renders that many at once. One render first, not counted, as a
 * running worker is warm. Prints one JSON line: seconds and CPU milliseconds.
 */
const photo = readFileSync(process.env.SHARP_ALONE_PHOTO ?? '');
const count = Number(process.env.SHARP_ALONE_COUNT);
const concurrency = Number(process.env.SHARP_ALONE_CONCURRENCY);
applyCpuLimits({ sharpThreads: Number(process.env.SHARP_ALONE_THREADS), nice: Number(process.env.SHARP_ALONE_NICE) }, createLogger('bench-sharp-alone', 'warn'));

await renderPhotoVersions(Buffer.from(photo));
let next = 0;
const cpu = process.cpuUsage();
const started = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < count) {
      next++;
      await renderPhotoVersions(Buffer.from(photo));
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
const used = process.cpuUsage(cpu);
process.stdout.write(`${JSON.stringify({ seconds, cpuMs: (used.user + used.system) / 1000 })}\n`);
