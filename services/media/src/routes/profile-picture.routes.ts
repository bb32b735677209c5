import { PROFILE_PICTURE_MAX_BYTES, storedImageResponse, uploadTokenParams, uploadUrlResponse } from '@hoptrack/proto';
import { authOf, avatarKey, conflict, type Authenticate, type ServiceApp, type UploadTokens, type ZodTypeProvider } from '@hoptrack/runtime';
import type { PrismaClient } from '../db';
import { storePersonFile } from '../domain/erasure';
import type { FileUrls } from '../domain/file-urls';
import { toProfilePicture } from '../images/images';
import type { ObjectStore } from '../storage/object-store';

interface ProfilePictureDeps {
  store: ObjectStore;
  prisma: PrismaClient;
  uploads: UploadTokens;
  uploadTtlSeconds: number;
  urls: FileUrls;
  authenticate: Authenticate;
}

/**
 * The profile-picture flow of spec section 7: hand out a signed upload URL,
 * take the bytes on it, store a cleaned WebP. The auth service then records
 * the picture (PUT /api/me/profile-picture, named by the stored URL or by the
 * upload URL itself) and announces it.
 */
export function profilePictureRoutes(app: ServiceApp, deps: ProfilePictureDeps): void {
  app.post('/api/profile-picture/upload', { preHandler: deps.authenticate, schema: { response: { 200: uploadUrlResponse } } }, async (request) => {
    const { url, claims } = deps.uploads.issue(authOf(request).userId, deps.uploadTtlSeconds);
    return { uploadURL: url, expiresAt: new Date(claims.exp * 1000).toISOString() };
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
        // The key is the link's id, so the upload URL names its picture (auth accepts either). A served
        // URL is cached as immutable, so a link takes one upload: a second one is refused, never stored
        // over the first. The lock makes two uploads on one link at once one after the other.
        const key = avatarKey(claims);
        // A link handed out before its owner deleted the account stores nothing once they are erased (storePersonFile).
        await storePersonFile(deps.prisma, claims.u, async (tx) => {
          await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${key}))`;
          if (await deps.store.exists(key)) throw conflict('This upload link has already been used; ask for a new one');
          await deps.store.put(key, image.data, image.contentType);
        });
        request.log.info({ userId: claims.u, key, bytes: image.data.length }, 'profile picture stored');
        return { url: deps.urls.public(key), width: image.width, height: image.height, contentType: image.contentType };
      },
    );
  });
}
