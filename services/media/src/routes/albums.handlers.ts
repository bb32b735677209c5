import type {} from '@fastify/multipart';
import { PHOTO_PICKER_MAX, type mediaApi } from '@hoptrack/proto';
import { badRequest, HttpError, type Handlers } from '@hoptrack/runtime';
import type { Albums, IncomingPhoto } from '../domain/albums';
import { inspectImage } from '../images/images';

/** /api/albums and /api/photos: the photo albums of spec section 7. */
export function albumsHandlers(
  albums: Albums,
): Pick<Handlers<typeof mediaApi>, 'albums' | 'createAlbum' | 'deleteAlbum' | 'photos' | 'addPhotos' | 'deletePhoto'> {
  return {
    albums: async (request) => {
      const viewerId = request.auth.userId;
      return albums.list(viewerId, request.query.userId ?? viewerId);
    },

    createAlbum: async (request) => albums.create(request.auth.userId, request.body),

    deleteAlbum: async (request) => albums.remove(request.auth.userId, request.params.id),

    photos: async (request) => albums.photos(request.auth.userId, request.params.id, request.query.q || undefined),

    // Multipart only here (the contract's upload): up to PHOTO_PICKER_MAX images, each checked by decoding its header before any is stored.
    addPhotos: async (request) => {
      if (!request.isMultipart()) throw badRequest('Send the photos as multipart/form-data in fields named "photos"', 'photos');
      // Ownership first: up to 10 × 10 MB is read into memory below, never for someone else's (or no) album.
      await albums.owned(request.auth.userId, request.params.id);
      const files: IncomingPhoto[] = [];
      let description: string | undefined;
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          if (part.fieldname === 'description' && typeof part.value === 'string') description = part.value.trim().slice(0, 500);
          continue;
        }
        if (part.fieldname !== 'photos') throw badRequest('Files must be sent in fields named "photos"', 'photos');
        if (files.length >= PHOTO_PICKER_MAX) throw badRequest(`You can add at most ${PHOTO_PICKER_MAX} photos at once`, 'photos');
        const data = await part.toBuffer();
        const originalName = part.filename || 'photo';
        const { contentType } = await inspectImage(data).catch((err: unknown) => {
          // Name the file: in a batch of ten the person must know which one to drop.
          throw err instanceof HttpError ? badRequest(`${originalName}: ${err.message}`, 'photos') : err;
        });
        files.push({ data, contentType, originalName });
      }
      if (files.length === 0) throw badRequest('Add at least one photo', 'photos');
      return albums.addPhotos(request.auth.userId, request.params.id, files, description);
    },

    deletePhoto: async (request) => albums.removePhoto(request.auth.userId, request.params.id),
  };
}
