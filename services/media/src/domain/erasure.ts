import { anyErased, forgetPerson, HttpError, type SqlClient } from '@hoptrack/runtime';
import type { Prisma } from '../db';
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
 * Serialises storing a person's files (shared, per store) with erasing them
 * (exclusive): a file stored on a link or by a request issued before the
 * deletion either lands before the erasure lists the folders, or finds the
 * tombstone after it and is refused.
 */
export async function lockFilesOf(tx: SqlClient, userId: string, mode: 'shared' | 'exclusive'): Promise<void> {
  await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock${mode === 'shared' ? '_shared' : ''}(hashtext($1))::text`, `media-files:${userId.toLowerCase()}`);
}

/**
 * Stores a file of `userId`'s (`put`) unless they were erased (410): the
 * profile-picture link and the internal uploads, whose callers were let in
 * before a deletion may have happened.
 */
export async function storePersonFile(db: { $transaction<R>(fn: (tx: Prisma.TransactionClient) => Promise<R>): Promise<R> }, userId: string, put: (tx: Prisma.TransactionClient) => Promise<void>): Promise<void> {
  await db.$transaction(async (tx) => {
    await lockFilesOf(tx, userId, 'shared');
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
      await lockFilesOf(tx, userId, 'exclusive');
      // The parts of their exports still being assembled (the exports store keeps them otherwise until its TTL).
      if (exportParts) {
        const exports = await tx.$queryRawUnsafe<Array<{ export_id: string }>>(
          `SELECT "export_id"::text FROM "export_assemblies" WHERE "user_id" = $1::uuid AND "status" = 'collecting'`,
          userId,
        );
        for (const { export_id } of exports) await exportParts.delete(export_id);
      }
      await tx.$queryRawUnsafe('SELECT id FROM photo_albums WHERE user_id = $1::uuid FOR UPDATE', userId);
      const photos = await tx.$queryRawUnsafe<Array<{ filename: string; url: string | null; thumbnail_key: string | null }>>(
        'SELECT filename, url, thumbnail_key FROM photos WHERE user_id = $1::uuid FOR UPDATE',
        userId,
      );
      const keys = new Set<string>(photos.flatMap((p) => [p.filename, p.url, p.thumbnail_key].filter((k): k is string => !!k)));
      for (const folder of personFolders(userId.toLowerCase())) for (const key of await store.list(folder)) keys.add(key);
      const all = [...keys];
      for (let i = 0; i < all.length; i += REMOVALS_AT_ONCE) await Promise.all(all.slice(i, i + REMOVALS_AT_ONCE).map((key) => store.remove(key)));
    },

    async rows(tx: Prisma.TransactionClient, userId: string): Promise<void> {
      const exec = (sql: string) => tx.$executeRawUnsafe(sql, userId);
      await exec('DELETE FROM photos WHERE user_id = $1::uuid');
      await exec('DELETE FROM photo_albums WHERE user_id = $1::uuid');
      await exec('DELETE FROM export_assemblies WHERE user_id = $1::uuid');
      // The audience's rows of them (its consumer deletes them too): gone with this commit, whichever runs first.
      await forgetPerson(tx, userId, { graph: true });
    },
  };
}
