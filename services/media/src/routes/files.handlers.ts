import type { mediaApi } from '@hoptrack/proto';
import { notFound, type Handlers } from '@hoptrack/runtime';
import type { FileUrls } from '../domain/file-urls';
import type { ObjectStore } from '../storage/object-store';

/**
 * Serves stored files: profile pictures to anyone, album images to whoever
 * holds a valid signed URL (see FileUrls) made for a viewer who still may see
 * the owner's photos (`mayView`, from the read models: a block or an
 * unfriending since the URL was handed out revokes it). Keys are fresh per
 * upload and never overwritten, so browsers may cache for a year.
 */
export function filesHandlers(
  store: ObjectStore,
  urls: FileUrls,
  mayView: (viewerId: string, ownerId: string) => Promise<boolean>,
): Pick<Handlers<typeof mediaApi>, 'file'> {
  return {
    file: async (request, reply) => {
      const key = request.params['*'];
      const grant = urls.grant(key, request.query);
      if (!grant || (grant.kind === 'signed' && !(await mayView(grant.viewerId, grant.ownerId)))) throw notFound('File not found');
      const object = await store.get(key);
      if (!object) throw notFound('File not found');
      if (grant.kind === 'export') {
        // A download, whatever the stored type says, and kept by no cache: the link is short-lived on purpose.
        return reply
          .header('content-type', 'application/zip')
          .header('content-length', object.size)
          .header('content-disposition', 'attachment; filename="hoptrack-export.zip"')
          .header('cache-control', 'private, no-store')
          .header('x-content-type-options', 'nosniff')
          .send(object.stream);
      }
      return reply
        .header('content-type', object.contentType)
        .header('content-length', object.size)
        .header('cache-control', grant.kind === 'public' ? 'public, max-age=31536000, immutable' : 'private, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(object.stream);
    },
  };
}
