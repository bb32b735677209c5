import { createHmac, timingSafeEqual } from 'node:crypto';
import { FILES_PREFIX } from '@hoptrack/proto';

/** Where every stored file is served: re-exported for the services that sign and read file URLs; its one definition is the media file contract's path (proto). */
export { FILES_PREFIX };

const VIEWER = /^[0-9a-f-]{36}$/;

/**
 * Signed file URLs bound to one viewer. An `<img>` cannot send a bearer token,
 * so the permission travels in the URL: a service that shows an image (media
 * for album photos, sessions for session photos) signs its path for the viewer
 * it checked; the media file route verifies the signature, then checks again
 * that this viewer may still see the owner's photos. Expiry is rounded to the
 * hour, so a viewer's URLs stay stable (and cacheable) for a while. Every
 * service derives the same key from the shared secret.
 */
export class FileSignature {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.key = createHmac('sha256', secret).update('hoptrack-media-files-v1').digest();
  }

  /** The URL of the file at `key` (relative to FILES_PREFIX) for `viewerId`. */
  url(key: string, viewerId: string): string {
    const now = Math.floor(this.clock().getTime() / 1000);
    const exp = Math.ceil((now + this.ttlSeconds) / 3600) * 3600;
    return `${FILES_PREFIX}${key}?exp=${exp}&v=${viewerId}&sig=${this.sign(key, exp, viewerId)}`;
  }

  /** The viewer a URL's query was signed for, or null when it is not a valid, unexpired signature of `key`. */
  verify(key: string, query: { exp?: string; v?: string; sig?: string }): string | null {
    if (!query.exp || !query.sig || !query.v || !/^\d+$/.test(query.exp) || !VIEWER.test(query.v)) return null;
    const exp = Number(query.exp);
    if (exp * 1000 <= this.clock().getTime()) return null;
    const expected = Buffer.from(this.sign(key, exp, query.v));
    const given = Buffer.from(query.sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    return query.v;
  }

  private sign(key: string, exp: number, viewerId: string): string {
    return createHmac('sha256', this.key).update(`${key}:${exp}:${viewerId}`).digest('base64url');
  }
}
