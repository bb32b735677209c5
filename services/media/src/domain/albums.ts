import type { Album, AlbumCreateRequest, Photo as PhotoView } from '@hoptrack/proto';
import { notFound, type Logger, type Outbox } from '@hoptrack/runtime';
import { randomUUID } from 'node:crypto';
import type { Photo, PhotoAlbum, Prisma, PrismaClient } from '../db';
import { albumsRepository } from '../repositories/albums.repository';
import { photosRepository } from '../repositories/photos.repository';
import type { ObjectStore } from '../storage/object-store';
import type { FileUrls } from './file-urls';
import { assertCanViewMediaOf } from './visibility';

export interface IncomingPhoto {
  data: Buffer;
  originalName: string;
  contentType: string;
}

export interface AlbumsDeps {
  prisma: PrismaClient;
  store: ObjectStore;
  urls: FileUrls;
  outbox: Outbox;
  onEventsCommitted: () => void;
  logger: Logger;
}

const ALBUM_NOT_FOUND = 'Album not found';
const PHOTO_NOT_FOUND = 'Photo not found';

/**
 * Locks `ownerId`'s album row for the rest of the transaction (see
 * albumsRepository.lockOwned), or answers 404 (someone else's album exactly
 * like a missing one).
 */
async function lockOwnedAlbum(tx: Prisma.TransactionClient, ownerId: string, albumId: string): Promise<void> {
  if (!(await albumsRepository.lockOwned(tx, ownerId, albumId))) throw notFound(ALBUM_NOT_FOUND);
}

export const photoKeys = (userId: string, photoId: string) => ({
  original: `originals/${userId}/${photoId}`,
  thumbnail: `thumbs/${userId}/${photoId}.webp`,
  display: `display/${userId}/${photoId}.webp`,
});

/** Albums and their photos: rows here, bytes in S3, thumbnails by the worker. */
export class Albums {
  constructor(private readonly deps: AlbumsDeps) {}

  async list(viewerId: string, ownerId: string): Promise<Album[]> {
    await assertCanViewMediaOf(this.deps.prisma, viewerId, ownerId);
    const albums = await albumsRepository.listOwnedWithPhotoCounts(this.deps.prisma, ownerId);
    return albums.map((a) => this.albumView(a, a._count.photos, viewerId));
  }

  async create(ownerId: string, input: AlbumCreateRequest): Promise<Album> {
    const album = await albumsRepository.create(this.deps.prisma, { userId: ownerId, name: input.name, description: input.description || null });
    return this.albumView(album, 0, ownerId);
  }

  /**
   * Deletes the album, its photos and every object they had; someone else's
   * album is 404. Each photo it held is announced (media.photo.deleted.v1) in
   * the transaction that deletes it.
   */
  async remove(ownerId: string, albumId: string): Promise<void> {
    const photos = await this.deps.prisma.$transaction(async (tx) => {
      await lockOwnedAlbum(tx, ownerId, albumId);
      const held = await photosRepository.heldByAlbum(tx, albumId);
      // The cascade deletes exactly `held`: the lock keeps any new photo out of the album until commit.
      await albumsRepository.deleteById(tx, albumId);
      for (const photo of held) await this.announceDeleted(tx, photo);
      return held;
    });
    this.deps.onEventsCommitted();
    await this.removeObjects(photos);
  }

  async photos(viewerId: string, albumId: string, q: string | undefined): Promise<PhotoView[]> {
    const album = await albumsRepository.findById(this.deps.prisma, albumId);
    if (!album) throw notFound(ALBUM_NOT_FOUND);
    await assertCanViewMediaOf(this.deps.prisma, viewerId, album.userId);
    const photos = await photosRepository.listInAlbum(this.deps.prisma, albumId, q);
    return photos.map((p) => this.photoView(p, viewerId));
  }

  /**
   * Stores the originals (already checked to be images), then records them and
   * announces each with media.photo.stored.v1 in one transaction: no row ever
   * names an object not yet stored. The worker makes the thumbnails. When a
   * put fails (the store down half-way through ten), or the transaction does,
   * the objects already stored are removed again before the answer; should
   * that fail too, the orphan sweep takes them later.
   */
  async addPhotos(ownerId: string, albumId: string, files: IncomingPhoto[], description: string | undefined): Promise<PhotoView[]> {
    await this.owned(ownerId, albumId);
    const prepared = files.map((file) => {
      const id = randomUUID();
      return { ...file, id, key: photoKeys(ownerId, id).original };
    });
    const puts = await Promise.allSettled(prepared.map((f) => this.deps.store.put(f.key, f.data, f.contentType)));
    const failed = puts.find((put) => put.status === 'rejected');
    if (failed) {
      await this.removeKeys(prepared.filter((_, i) => puts[i]?.status === 'fulfilled').map((f) => f.key), 'upload failed');
      throw failed.reason;
    }
    try {
      const created = await this.deps.prisma.$transaction(async (tx) => {
        const rows: Photo[] = [];
        for (const file of prepared) {
          rows.push(
            await photosRepository.create(tx, {
              id: file.id,
              userId: ownerId,
              albumId,
              filename: file.key,
              originalName: file.originalName.slice(0, 255),
              description: description || null,
              fileSize: file.data.length,
              mimeType: file.contentType,
            }),
          );
          await this.deps.outbox.enqueue(tx, 'media.photo.stored.v1', { photoId: file.id, userId: ownerId, albumId, key: file.key });
        }
        return rows;
      });
      this.deps.onEventsCommitted();
      return created.map((p) => this.photoView(p, ownerId));
    } catch (err) {
      await this.removeKeys(prepared.map((f) => f.key), 'upload not recorded');
      throw err;
    }
  }

  /** Deletes a photo and its objects, announcing it (media.photo.deleted.v1); the album cover moves to the next ready photo. */
  async removePhoto(ownerId: string, photoId: string): Promise<void> {
    const photo = await this.deps.prisma.$transaction(async (tx) => {
      const found = await photosRepository.findById(tx, photoId);
      if (!found || found.userId !== ownerId) throw notFound(PHOTO_NOT_FOUND);
      // Two deletes at once: the second waits for the first's row lock, then finds nothing and
      // answers 404 (rolling back), so the photo is announced deleted once.
      if ((await photosRepository.deleteById(tx, found.id)) === 0) throw notFound(PHOTO_NOT_FOUND);
      const album = await albumsRepository.findById(tx, found.albumId);
      if (album && found.thumbnailKey && album.coverPhotoUrl === found.thumbnailKey) {
        const next = await photosRepository.firstReadyInAlbum(tx, album.id);
        await albumsRepository.setCover(tx, album.id, next?.thumbnailKey ?? null);
      }
      await this.announceDeleted(tx, found);
      return found;
    });
    this.deps.onEventsCommitted();
    await this.removeObjects([photo]);
  }

  /** The album, if `ownerId` owns it; else 404, exactly like a missing one. The upload route calls it before reading the body. */
  async owned(ownerId: string, albumId: string): Promise<PhotoAlbum> {
    const album = await albumsRepository.findById(this.deps.prisma, albumId);
    // Someone else's album answers exactly like a missing one.
    if (!album || album.userId !== ownerId) throw notFound(ALBUM_NOT_FOUND);
    return album;
  }

  /** Writes media.photo.deleted.v1 in the transaction that deletes the row. */
  private async announceDeleted(tx: Prisma.TransactionClient, photo: Photo): Promise<void> {
    await this.deps.outbox.enqueue(tx, 'media.photo.deleted.v1', { photoId: photo.id, userId: photo.userId, albumId: photo.albumId });
  }

  /** Removes deleted photos' objects (their rows are gone already): one the store keeps is the orphan sweep's. */
  private removeObjects(photos: Photo[]): Promise<void> {
    return this.removeKeys(photos.flatMap((p) => Object.values(photoKeys(p.userId, p.id))), 'photo deleted');
  }

  /** Best effort: what cannot be removed now is left to the orphan sweep (no row names it), and logged. */
  private async removeKeys(keys: string[], why: string): Promise<void> {
    await Promise.all(
      keys.map((key) => this.deps.store.remove(key).catch((err: unknown) => this.deps.logger.warn({ err, key, why }, 'object left to the orphan sweep'))),
    );
  }

  /** Image URLs are signed for `viewerId`: the file route re-checks that viewer's right when serving them. */
  private albumView(album: PhotoAlbum, photoCount: number, viewerId: string): Album {
    return {
      id: album.id,
      userId: album.userId,
      name: album.name,
      description: album.description,
      coverPhoto: album.coverPhotoUrl ? this.deps.urls.signed(album.coverPhotoUrl, viewerId) : null,
      photoCount,
      createdAt: album.createdAt.toISOString(),
    };
  }

  private photoView(photo: Photo, viewerId: string): PhotoView {
    const ready = photo.status === 'ready';
    return {
      id: photo.id,
      albumId: photo.albumId,
      url: ready && photo.url ? this.deps.urls.signed(photo.url, viewerId) : null,
      thumbnailUrl: ready && photo.thumbnailKey ? this.deps.urls.signed(photo.thumbnailKey, viewerId) : null,
      originalName: photo.originalName,
      description: photo.description,
      status: photo.status === 'ready' || photo.status === 'failed' ? photo.status : 'processing',
      failureReason: photo.failureReason,
      width: photo.width,
      height: photo.height,
      fileSize: photo.fileSize,
      createdAt: photo.createdAt.toISOString(),
    };
  }
}
