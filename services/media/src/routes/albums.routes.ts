import multipart from '@fastify/multipart';
import {
  addPhotosResponse,
  album,
  albumCreateRequest,
  albumsQuery,
  idParams,
  PHOTO_MAX_BYTES,
  PHOTO_PICKER_MAX,
  photo,
  photosQuery,
} from '@hoptrack/proto';
import { authOf, badRequest, HttpError, type Authenticate, type ServiceApp, type ZodTypeProvider } from '@hoptrack/runtime';
import { z } from 'zod';
import type { Albums, IncomingPhoto } from '../domain/albums';
import { inspectImage } from '../images/images';

/** /api/albums and /api/photos: the photo albums of spec section 7. */
export function albumsRoutes(app: ServiceApp, albums: Albums, authenticate: Authenticate): void {
  const guarded = { preHandler: authenticate };

  app.get('/api/albums', { ...guarded, schema: { querystring: albumsQuery, response: { 200: z.array(album) } } }, async (request) => {
    const viewerId = authOf(request).userId;
    return albums.list(viewerId, request.query.userId ?? viewerId);
  });

  app.post('/api/albums', { ...guarded, schema: { body: albumCreateRequest, response: { 201: album } } }, async (request, reply) =>
    reply.status(201).send(await albums.create(authOf(request).userId, request.body)),
  );

  app.delete('/api/albums/:id', { ...guarded, schema: { params: idParams } }, async (request, reply) => {
    await albums.remove(authOf(request).userId, request.params.id);
    return reply.status(204).send();
  });

  app.get('/api/albums/:id/photos', { ...guarded, schema: { params: idParams, querystring: photosQuery, response: { 200: z.array(photo) } } }, async (request) =>
    albums.photos(authOf(request).userId, request.params.id, request.query.q || undefined),
  );

  app.delete('/api/photos/:id', { ...guarded, schema: { params: idParams } }, async (request, reply) => {
    await albums.removePhoto(authOf(request).userId, request.params.id);
    return reply.status(204).send();
  });

  // Multipart only here: up to PHOTO_PICKER_MAX images, each checked by decoding its header before any is stored.
  app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    await scope.register(multipart, { limits: { fileSize: PHOTO_MAX_BYTES, files: PHOTO_PICKER_MAX + 1, fields: 5, parts: PHOTO_PICKER_MAX + 6 } });
    scope.post('/api/albums/:id/photos', { ...guarded, schema: { params: idParams, response: { 201: addPhotosResponse } } }, async (request, reply) => {
      if (!request.isMultipart()) throw badRequest('Send the photos as multipart/form-data in fields named "photos"', 'photos');
      // Ownership first: up to 10 × 10 MB is read into memory below, never for someone else's (or no) album.
      await albums.owned(authOf(request).userId, request.params.id);
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
      return reply.status(201).send(await albums.addPhotos(authOf(request).userId, request.params.id, files, description));
    });
  });
}
