import { randomUUID } from 'node:crypto';
import { PROFILE_PICTURE_MAX_BYTES, storedImageResponse, uploadTokenParams, uploadUrlResponse } from '@hoptrack/proto';
import { authOf, type Authenticate, type ServiceApp, type ZodTypeProvider } from '@hoptrack/runtime';
import { toProfilePicture } from '../images/images';
import type { ObjectStore } from '../storage/object-store';
import type { UploadTokens } from '../uploads/upload-tokens';
import type { FileUrls } from '../domain/file-urls';

/**
 * The profile-picture flow of spec section 7: hand out a signed upload URL,
 * take the bytes on it, store a cleaned WebP. The auth service then records
 * the URL (PUT /api/me/profile-picture) and announces it.
 */
export function profilePictureRoutes(app: ServiceApp, deps: { store: ObjectStore; uploads: UploadTokens; urls: FileUrls; authenticate: Authenticate }): void {
  app.post('/api/profile-picture/upload', { preHandler: deps.authenticate, schema: { response: { 200: uploadUrlResponse } } }, async (request) => {
    const { token, claims } = deps.uploads.issue(authOf(request).userId);
    return { uploadURL: `/api/media/uploads/${token}`, expiresAt: new Date(claims.exp * 1000).toISOString() };
  });

  // The upload route takes raw bytes of any declared type: what they are is decided by decoding them.
  app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: PROFILE_PICTURE_MAX_BYTES }, (_request, body, done) => done(null, body));
    scope.put(
      '/api/media/uploads/:token',
      { bodyLimit: PROFILE_PICTURE_MAX_BYTES, schema: { params: uploadTokenParams, response: { 200: storedImageResponse } } },
      async (request) => {
        const claims = deps.uploads.verify(request.params.token);
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const image = await toProfilePicture(body);
        // A fresh key per upload, even on the same link: a served URL is cached as immutable and must never change bytes.
        const key = `avatars/${claims.u}/${randomUUID()}.webp`;
        await deps.store.put(key, image.data, image.contentType);
        request.log.info({ userId: claims.u, key, bytes: image.data.length }, 'profile picture stored');
        return { url: deps.urls.public(key), width: image.width, height: image.height, contentType: image.contentType };
      },
    );
  });
}
