import { notFound, type ServiceApp } from '@hoptrack/runtime';
import { z } from 'zod';
import type { ObjectStore } from '../storage/object-store';

const FILES_PREFIX = '/api/media/files/';
/** Keys we serve: profile pictures are public, like the name beside them. Album photos will add their own rule. */
const PUBLIC_KEY = /^avatars\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.webp$/;

export const fileUrl = (key: string) => `${FILES_PREFIX}${key}`;

/** Serves stored files. Keys are content-addressed by a fresh id per upload, so a year of caching is safe. */
export function filesRoutes(app: ServiceApp, store: ObjectStore): void {
  app.get('/api/media/files/*', { schema: { params: z.object({ '*': z.string().max(300) }) } }, async (request, reply) => {
    const key = request.params['*'];
    if (!PUBLIC_KEY.test(key)) throw notFound('File not found');
    const object = await store.get(key);
    if (!object) throw notFound('File not found');
    return reply
      .header('content-type', object.contentType)
      .header('content-length', object.size)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(object.stream);
  });
}
