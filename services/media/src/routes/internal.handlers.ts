import type {} from '@fastify/multipart';
import type { mediaApi } from '@hoptrack/proto';
import { badRequest, sessionPhotoKey, type Handlers } from '@hoptrack/runtime';
import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../db';
import { storePersonFile } from '../domain/erasure';
import type { FileUrls } from '../domain/file-urls';
import { toDisplayImage } from '../images/images';
import type { ObjectStore } from '../storage/object-store';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Uploads on behalf of other services (the sessions service sends a session's
 * photo here). Outside /api, so the gateway never routes it: only processes on
 * the internal network reach it. One image per call, checked and re-encoded
 * like every other; the answer is the path to keep. With an `ownerId` field
 * the file is the owner's: it is served only through URLs the caller signs
 * per viewer (FileSignature), and the file route re-checks the owner's privacy.
 */
export function internalHandlers(store: ObjectStore, urls: FileUrls, prisma: PrismaClient): Pick<Handlers<typeof mediaApi>, 'internalUpload'> {
  return {
    internalUpload: async (request) => {
      if (!request.isMultipart()) throw badRequest('Send the image as multipart/form-data in a field named "file"', 'file');
      const part = await request.file();
      if (!part || part.fieldname !== 'file') throw badRequest('Send the image in a field named "file"', 'file');
      // The owner (a field sent before the file) scopes the key, so the file route can apply the owner's privacy.
      const owner = part.fields.ownerId;
      const ownerId = owner && !Array.isArray(owner) && owner.type === 'field' ? String(owner.value) : undefined;
      if (ownerId !== undefined && !UUID.test(ownerId)) throw badRequest('ownerId must be a valid user id', 'ownerId');
      const image = await toDisplayImage(await part.toBuffer());
      const key = ownerId ? sessionPhotoKey(ownerId, randomUUID()) : `uploads/${randomUUID()}.webp`;
      // An owner's file is stored unless they were erased (a request let in before their deletion): see storePersonFile.
      if (ownerId) await storePersonFile(prisma, ownerId, () => store.put(key, image.data, image.contentType));
      else await store.put(key, image.data, image.contentType);
      return { url: urls.public(key), width: image.width, height: image.height, contentType: image.contentType };
    },
  };
}
