import type { mediaApi } from '@hoptrack/proto';
import { avatarKey, conflict, type Handlers, type UploadTokens } from '@hoptrack/runtime';
import type { PrismaClient } from '../db';
import { storePersonFile } from '../domain/erasure';
import type { FileUrls } from '../domain/file-urls';
import { toProfilePicture } from '../images/images';
import { locksRepository } from '../repositories/locks.repository';
import type { ObjectStore } from '../storage/object-store';

interface ProfilePictureDeps {
  store: ObjectStore;
  prisma: PrismaClient;
  uploads: UploadTokens;
  uploadTtlSeconds: number;
  urls: FileUrls;
}

/**
 * The profile-picture flow of spec section 7: hand out a signed upload URL,
 * take the bytes on it, store a cleaned WebP. The auth service then records
 * the picture (PUT /api/me/profile-picture, named by the stored URL or by the
 * upload URL itself) and announces it.
 */
export function profilePictureHandlers(deps: ProfilePictureDeps): Pick<Handlers<typeof mediaApi>, 'profilePictureUploadUrl' | 'uploadProfilePicture'> {
  return {
    profilePictureUploadUrl: async (request) => {
      const { url, claims } = deps.uploads.issue(request.auth.userId, deps.uploadTtlSeconds);
      return { uploadURL: url, expiresAt: new Date(claims.exp * 1000).toISOString() };
    },

    // The body is the raw bytes of any declared type (the contract's raw upload): what they are is decided by decoding them.
    uploadProfilePicture: async (request) => {
      const claims = deps.uploads.verify(request.params.token);
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const image = await toProfilePicture(body);
      // The key is the link's id, so the upload URL names its picture (auth accepts either). A served
      // URL is cached as immutable, so a link takes one upload: a second one is refused, never stored
      // over the first. The lock makes two uploads on one link at once one after the other.
      const key = avatarKey(claims);
      // A link handed out before its owner deleted the account stores nothing once they are erased (storePersonFile).
      await storePersonFile(deps.prisma, claims.u, async (tx) => {
        await locksRepository.uploadLink(tx, key);
        if (await deps.store.exists(key)) throw conflict('This upload link has already been used; ask for a new one');
        await deps.store.put(key, image.data, image.contentType);
      });
      request.log.info({ userId: claims.u, key, bytes: image.data.length }, 'profile picture stored');
      return { url: deps.urls.public(key), width: image.width, height: image.height, contentType: image.contentType };
    },
  };
}
