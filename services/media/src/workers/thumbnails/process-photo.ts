import type { Logger, Outbox } from '@hoptrack/runtime';
import type { PrismaClient } from '../../db';
import { photoKeys } from '../../domain/albums';
import { renderPhotoVersions, type PhotoVersions } from '../../images/images';
import { albumsRepository } from '../../repositories/albums.repository';
import { photosRepository } from '../../repositories/photos.repository';
import type { ObjectStore } from '../../storage/object-store';

export interface ProcessDeps {
  prisma: PrismaClient;
  store: ObjectStore;
  outbox: Outbox;
  onEventsCommitted: () => void;
  logger: Logger;
  /** Fault injection for tests (THUMBNAIL_FAULT_DELAY_MS): wait this long between the S3 puts and the database update. */
  delayMs?: number;
  /**
   * The resizes (default: renderPhotoVersions as it is). The worker process passes it
   * through its render slots (render-slots.ts), so jobs beyond them do their S3 and
   * database work while the others render.
   */
  render?: (original: Buffer) => Promise<PhotoVersions>;
}

export type ProcessOutcome = 'ready' | 'failed' | 'skipped';

/**
 * Makes a photo's thumbnail and display versions. Safe to run twice for one
 * photo (a retry, a worker that died mid-job): the keys are fixed per photo
 * and the final update only applies while the photo is still processing, so
 * the cover and photo.processed.v1 happen once. Expected outcomes (photo gone,
 * not decodable) are returned; only faults (S3 or database down) throw and retry.
 */
export async function processPhoto(deps: ProcessDeps, photoId: string): Promise<ProcessOutcome> {
  const { prisma, store, logger } = deps;
  const photo = await photosRepository.findById(prisma, photoId);
  if (!photo || photo.status !== 'processing') {
    logger.info({ photoId, status: photo?.status ?? 'deleted' }, 'thumbnail skipped');
    return 'skipped';
  }
  const original = await store.getBuffer(photo.filename);
  if (!original) return markFailed(deps, photo, 'The original file is missing');

  let versions: PhotoVersions;
  try {
    versions = await (deps.render ?? renderPhotoVersions)(original);
  } catch (err) {
    return markFailed(deps, photo, `The image could not be decoded: ${(err as Error).message}`.slice(0, 300));
  }
  const keys = photoKeys(photo.userId, photo.id);
  // Both writes at once, after the render slot is given back: the next photo renders meanwhile.
  await Promise.all([store.put(keys.thumbnail, versions.thumbnail, 'image/webp'), store.put(keys.display, versions.display, 'image/webp')]);
  // The dangerous moment for a crash: objects written, photo not yet marked. A test kills the worker here.
  if (deps.delayMs) await new Promise((r) => setTimeout(r, deps.delayMs));
  const applied = await prisma.$transaction(async (tx) => {
    const rendered = { url: keys.display, thumbnailKey: keys.thumbnail, width: versions.width, height: versions.height };
    if ((await photosRepository.markReady(tx, photo.id, rendered)) === 0) return false;
    await albumsRepository.setCoverIfNone(tx, photo.albumId, keys.thumbnail);
    await deps.outbox.enqueue(tx, 'media.photo.processed.v1', {
      photoId: photo.id,
      userId: photo.userId,
      albumId: photo.albumId,
      thumbnailKey: keys.thumbnail,
      displayKey: keys.display,
      width: versions.width,
      height: versions.height,
    });
    return true;
  });
  if (!applied) {
    // Deleted (or its owner erased) while it rendered: what was just written belongs to nothing, so it goes.
    // (The deletion removed the photo's objects before its commit; these were written after that.)
    if (!(await photosRepository.exists(prisma, photo.id))) {
      await Promise.all([store.remove(keys.thumbnail), store.remove(keys.display)]);
      logger.info({ photoId }, 'photo gone while rendering; its versions removed');
    }
    return 'skipped';
  }
  deps.onEventsCommitted();
  logger.info({ photoId }, 'thumbnail ready');
  return 'ready';
}

async function markFailed(deps: ProcessDeps, photo: { id: string; userId: string; albumId: string }, reason: string): Promise<ProcessOutcome> {
  const applied = await deps.prisma.$transaction(async (tx) => {
    if ((await photosRepository.markFailed(tx, photo.id, reason)) === 0) return false;
    await deps.outbox.enqueue(tx, 'media.photo.failed.v1', { photoId: photo.id, userId: photo.userId, albumId: photo.albumId, reason });
    return true;
  });
  if (applied) deps.onEventsCommitted();
  deps.logger.warn({ photoId: photo.id, reason }, 'thumbnail failed');
  return applied ? 'failed' : 'skipped';
}
