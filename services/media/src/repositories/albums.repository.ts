import { executeSql, queryRows, sql, type SqlClient } from '@hoptrack/runtime';
import type { Db, Photo, PhotoAlbum } from '../db';

export type AlbumWithPhotoCount = PhotoAlbum & { _count: { photos: number } };
export type AlbumWithPhotos = PhotoAlbum & { photos: Photo[] };
export type NewAlbum = Pick<PhotoAlbum, 'userId' | 'name' | 'description'>;

/** All reads and writes of the photo_albums table. */
export const albumsRepository = {
  findById(db: Db, id: string): Promise<PhotoAlbum | null> {
    return db.photoAlbum.findUnique({ where: { id } });
  },

  /** An owner's albums, newest first, each with how many photos it holds. */
  listOwnedWithPhotoCounts(db: Db, ownerId: string): Promise<AlbumWithPhotoCount[]> {
    return db.photoAlbum.findMany({
      where: { userId: ownerId },
      orderBy: { createdAt: 'desc' },
      include: { _count: { select: { photos: true } } },
    });
  },

  /** An owner's albums, oldest first, each with its photos oldest first (their data export). */
  listOwnedWithPhotos(db: Db, ownerId: string): Promise<AlbumWithPhotos[]> {
    return db.photoAlbum.findMany({
      where: { userId: ownerId },
      orderBy: { createdAt: 'asc' },
      include: { photos: { orderBy: { createdAt: 'asc' } } },
    });
  },

  create(db: Db, data: NewAlbum): Promise<PhotoAlbum> {
    return db.photoAlbum.create({ data });
  },

  /** Deletes the album; its photos go with it (ON DELETE CASCADE). */
  deleteById(db: Db, id: string): Promise<PhotoAlbum> {
    return db.photoAlbum.delete({ where: { id } });
  },

  setCover(db: Db, id: string, coverPhotoUrl: string | null): Promise<PhotoAlbum> {
    return db.photoAlbum.update({ where: { id }, data: { coverPhotoUrl } });
  },

  /** Makes `thumbnailKey` the album's cover unless it has one; the albums changed (0 or 1). */
  async setCoverIfNone(db: Db, id: string, thumbnailKey: string): Promise<number> {
    const { count } = await db.photoAlbum.updateMany({ where: { id, coverPhotoUrl: null }, data: { coverPhotoUrl: thumbnailKey } });
    return count;
  },

  /**
   * Locks `ownerId`'s album row for the rest of the transaction; false when
   * there is no such album of theirs. FOR UPDATE conflicts with the key-share
   * lock a photo insert takes on its album, so no photo can join the album
   * between reading its photos and deleting it.
   */
  async lockOwned(db: Db, ownerId: string, albumId: string): Promise<boolean> {
    const rows = await queryRows<Array<{ id: string }>>(
      db,
      sql`SELECT "id"::text AS "id" FROM "photo_albums" WHERE "id" = ${albumId}::uuid AND "user_id" = ${ownerId}::uuid FOR UPDATE`,
    );
    return rows.length > 0;
  },

  /** Locks every album of `userId`'s (their erasure): a new photo's insert waits on it, then fails. */
  async lockOwnedBy(db: SqlClient, userId: string): Promise<void> {
    await queryRows<unknown[]>(db, sql`SELECT id FROM photo_albums WHERE user_id = ${userId}::uuid FOR UPDATE`);
  },

  deleteOwnedBy(db: SqlClient, userId: string): Promise<number> {
    return executeSql(db, sql`DELETE FROM photo_albums WHERE user_id = ${userId}::uuid`);
  },
};
