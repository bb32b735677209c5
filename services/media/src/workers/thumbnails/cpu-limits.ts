import type { Logger } from '@hoptrack/runtime';
import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import sharp from 'sharp';

export interface CpuLimits {
  /** libvips threads per image. */
  sharpThreads: number;
  /** Unix nice value of every thread of the process. */
  nice: number;
}

/**
 * Keeps the thumbnail worker from starving the API processes on the same
 * machine. The job concurrency bounds how many images are decoded at once;
 * this bounds the threads each one uses and lowers the priority of the lot.
 *
 * On Linux a nice value belongs to a thread, not to the process, and a new
 * thread takes its creator's. So every thread alive now is reniced (the main
 * thread, libuv's pool — where sharp's tasks run —, V8's helpers); the libvips
 * threads the pool starts later inherit it. Elsewhere the call on pid 0 sets
 * the whole process. Lowering one's own priority needs no privilege.
 */
export function applyCpuLimits(limits: CpuLimits, logger: Logger): void {
  sharp.concurrency(limits.sharpThreads);
  let threads: number[];
  try {
    threads = readdirSync('/proc/self/task').map(Number);
  } catch {
    threads = [0];
  }
  for (const tid of threads) {
    try {
      setPriority(tid, limits.nice);
    } catch (err) {
      // A thread that ended between the listing and here.
      logger.debug({ tid, err }, 'could not renice a thread');
    }
  }
  logger.info({ sharpThreads: sharp.concurrency(), nice: getPriority(0), threads: threads.length }, 'thumbnail worker CPU limits');
}
