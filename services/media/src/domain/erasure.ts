import { anyErased, forgetPerson, HttpError, type SqlClient } from '@hoptrack/runtime';
import type { Prisma } from '../db';
import { albumsRepository } from '../repositories/albums.repository';
import { exportAssembliesRepository } from '../repositories/export-assemblies.repository';
import { locksRepository } from '../repositories/locks.repository';
import { photosRepository } from '../repositories/photos.repository';
import type { ObjectStore } from '../storage/object-store';

/**
 * Where a person's files live in the bucket, one folder per kind, each named
 * by their id: album originals, thumbnails and display versions (photoKeys),
 * profile pictures (avatarKey), the photos other services stored as
 * theirs (session photos, /internal/uploads with an ownerId), and their data
 * exports' zips (exportKey).
 */
export const personFolders = (userId: string): string[] =>
  ['originals', 'thumbs', 'display', 'avatars', 'uploads', 'exports'].map((kind) => `${kind}/${userId}/`);

/** Objects removed at once. */
const REMOVALS_AT_ONCE = 16;

/**
 * Stores a file of `userId`'s (`put`) unless they were erased (410): the
 * profile-picture link and the internal uploads, whose callers were let in
 * before a deletion may have happened.
 */
export async function storePersonFile(db: { $transaction<R>(fn: (tx: Prisma.TransactionClient) => Promise<R>): Promise<R> }, userId: string, put: (tx: Prisma.TransactionClient) => Promise<void>): Promise<void> {
  await db.$transaction(async (tx) => {
    await locksRepository.filesOf(tx, userId, 'shared');
    if (await anyErased(tx, [userId])) throw new HttpError(410, 'This account has been deleted');
    await put(tx);
  });
}

/**
 * The media service's part of an account deletion (issue 24), for
 * startErasure: every object in the person's folders and every key their
 * rows name (`outside`), then their albums and photos (`rows`). The rows are
 * locked first, so a thumbnail the worker writes meanwhile either lands before
 * the listing or finds its photo gone and removes what it wrote; a new photo
 * cannot join the album (its insert waits on the album's lock, then fails).
 */
export function mediaErasure(store: ObjectStore, exportParts?: { delete(exportId: string): Promise<void> }) {
  return {
    async outside(userId: string, tx: SqlClient): Promise<void> {
      await locksRepository.filesOf(tx, userId, 'exclusive');
      // The parts of their exports still being assembled (the exports store keeps them otherwise until its TTL).
      if (exportParts) {
        for (const exportId of await exportAssembliesRepository.collectingIdsOf(tx, userId)) await exportParts.delete(exportId);
      }
      await albumsRepository.lockOwnedBy(tx, userId);
      const photos = await photosRepository.lockKeysOwnedBy(tx, userId);
      const keys = new Set<string>(photos.flatMap((p) => [p.filename, p.url, p.thumbnail_key].filter((k): k is string => !!k)));
      for (const folder of personFolders(userId.toLowerCase())) for (const key of await store.list(folder)) keys.add(key);
      const all = [...keys];
      for (let i = 0; i < all.length; i += REMOVALS_AT_ONCE) await Promise.all(all.slice(i, i + REMOVALS_AT_ONCE).map((key) => store.remove(key)));
    },

    async rows(tx: Prisma.TransactionClient, userId: string): Promise<void> {
      await photosRepository.deleteOwnedBy(tx, userId);
      await albumsRepository.deleteOwnedBy(tx, userId);
      await exportAssembliesRepository.deleteOwnedBy(tx, userId);
      // The audience's rows of them (its consumer deletes them too): gone with this commit, whichever runs first.
      await forgetPerson(tx, userId, { graph: true });
    },
  };
}
