import { createHmac, timingSafeEqual } from 'node:crypto';

export const FILES_PREFIX = '/api/media/files/';
/**
 * Served without a signature: profile pictures (public like the name beside
 * them) and images other services uploaded (their URL, an unguessable id, is
 * shown only where that service's own privacy rules allow).
 */
const PUBLIC_KEY = /^(avatars\/[0-9a-f-]{36}\/[0-9a-f-]{36}|uploads\/[0-9a-f-]{36})\.webp$/;
/** Album images: served only with a signature made for a viewer who may see them. */
const SIGNED_KEY = /^(thumbs|display)\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.webp$/;

/**
 * URLs for stored files. An `<img>` cannot send a bearer token, so the
 * permission travels in the URL: the API checks privacy when it lists photos
 * and hands out URLs that expire; the file route checks only the signature.
 * Expiry is rounded to the hour so a viewer's URLs stay stable (and cacheable)
 * for a while rather than changing on every request.
 */
export class FileUrls {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.key = createHmac('sha256', secret).update('hoptrack-media-files-v1').digest();
  }

  public(key: string): string {
    return `${FILES_PREFIX}${key}`;
  }

  signed(key: string): string {
    const now = Math.floor(this.clock().getTime() / 1000);
    const exp = Math.ceil((now + this.ttlSeconds) / 3600) * 3600;
    return `${FILES_PREFIX}${key}?exp=${exp}&sig=${this.sign(key, exp)}`;
  }

  /** True when `key` may be served for this query. */
  allows(key: string, query: { exp?: string; sig?: string }): boolean {
    if (PUBLIC_KEY.test(key)) return true;
    if (!SIGNED_KEY.test(key) || !query.exp || !query.sig || !/^\d+$/.test(query.exp)) return false;
    const exp = Number(query.exp);
    if (exp * 1000 <= this.clock().getTime()) return false;
    const expected = Buffer.from(this.sign(key, exp));
    const given = Buffer.from(query.sig);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  private sign(key: string, exp: number): string {
    return createHmac('sha256', this.key).update(`${key}:${exp}`).digest('base64url');
  }
}
