import { escapeLike, executeSql, queryRows, sql, type SqlClient } from '@hoptrack/runtime';
import type { Db, Photo } from '../db';

export type NewPhoto = Pick<Photo, 'id' | 'userId' | 'albumId' | 'filename' | 'originalName' | 'description' | 'fileSize' | 'mimeType'>;

/** The versions the worker made of a photo: the display version's and the thumbnail's keys, and the size. */
export interface RenderedPhoto {
  url: string;
  thumbnailKey: string;
  width: number;
  height: number;
}

/** The object keys a photo row names. */
export interface PhotoKeysRow {
  filename: string;
  url: string | null;
  thumbnail_key: string | null;
}

/** All reads and writes of the photos table. */
export const photosRepository = {
  findById(db: Db, id: string): Promise<Photo | null> {
    return db.photo.findUnique({ where: { id } });
  },

  async exists(db: Db, id: string): Promise<boolean> {
    return (await db.photo.findUnique({ where: { id }, select: { id: true } })) !== null;
  },

  /** Every photo the album holds, in no particular order. */
  heldByAlbum(db: Db, albumId: string): Promise<Photo[]> {
    return db.photo.findMany({ where: { albumId } });
  },

  /** The album's photos, oldest first; with `q`, only those whose name or description contains it (any case). */
  listInAlbum(db: Db, albumId: string, q: string | undefined): Promise<Photo[]> {
    return db.photo.findMany({
      where: {
        albumId,
        ...(q ? { OR: [{ originalName: { contains: escapeLike(q), mode: 'insensitive' } }, { description: { contains: escapeLike(q), mode: 'insensitive' } }] } : {}),
      },
      orderBy: { createdAt: 'asc' },
    });
  },

  /** The album's oldest photo that is ready (its next cover). */
  firstReadyInAlbum(db: Db, albumId: string): Promise<Photo | null> {
    return db.photo.findFirst({ where: { albumId, status: 'ready' }, orderBy: { createdAt: 'asc' } });
  },

  create(db: Db, data: NewPhoto): Promise<Photo> {
    return db.photo.create({ data });
  },

  /** Deletes the photo; the rows deleted (0 when it was gone already). */
  async deleteById(db: Db, id: string): Promise<number> {
    const { count } = await db.photo.deleteMany({ where: { id } });
    return count;
  },

  /** Records the photo's versions while it is still processing; the rows changed (0 or 1). */
  async markReady(db: Db, id: string, rendered: RenderedPhoto): Promise<number> {
    const { count } = await db.photo.updateMany({ where: { id, status: 'processing' }, data: { status: 'ready', ...rendered } });
    return count;
  },

  /** Records why the photo could not be processed, while it is still processing; the rows changed (0 or 1). */
  async markFailed(db: Db, id: string, reason: string): Promise<number> {
    const { count } = await db.photo.updateMany({ where: { id, status: 'processing' }, data: { status: 'failed', failureReason: reason } });
    return count;
  },

  /** Locks every photo of `userId`'s (their erasure) and answers the object keys they name. */
  lockKeysOwnedBy(db: SqlClient, userId: string): Promise<PhotoKeysRow[]> {
    return queryRows<PhotoKeysRow[]>(db, sql`SELECT filename, url, thumbnail_key FROM photos WHERE user_id = ${userId}::uuid FOR UPDATE`);
  },

  deleteOwnedBy(db: SqlClient, userId: string): Promise<number> {
    return executeSql(db, sql`DELETE FROM photos WHERE user_id = ${userId}::uuid`);
  },

  /** Which of `ids` are photos, with their owners: one query for a whole page of the orphan sweep. */
  ownersAmong(db: SqlClient, ids: readonly string[]): Promise<Array<{ id: string; user_id: string }>> {
    return queryRows(db, sql`SELECT id::text, user_id::text FROM photos WHERE id = ANY(${[...ids]}::uuid[])`);
  },
};
