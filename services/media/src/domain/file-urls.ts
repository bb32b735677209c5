import { createHmac, timingSafeEqual } from 'node:crypto';

export const FILES_PREFIX = '/api/media/files/';
/**
 * Served without a signature: profile pictures (public like the name beside
 * them) and images other services uploaded (their URL, an unguessable id, is
 * shown only where that service's own privacy rules allow).
 */
const PUBLIC_KEY = /^(avatars\/[0-9a-f-]{36}\/[0-9a-f-]{36}|uploads\/[0-9a-f-]{36})\.webp$/;
/** Album images (`<size>/<owner>/<photo>.webp`): served only with a signature made for a viewer who may see them. */
const SIGNED_KEY = /^(?:thumbs|display)\/([0-9a-f-]{36})\/[0-9a-f-]{36}\.webp$/;
const VIEWER = /^[0-9a-f-]{36}$/;

/** What a file URL allows: a public file, or an album image for one viewer (whose right the route re-checks). */
export type FileGrant = { kind: 'public' } | { kind: 'signed'; viewerId: string; ownerId: string };

/**
 * URLs for stored files. An `<img>` cannot send a bearer token, so the
 * permission travels in the URL: the API checks privacy when it lists photos
 * and hands out URLs that expire, each bound to the viewer it was made for;
 * the file route checks the signature and then that this viewer still may
 * see the owner's photos (a block or an unfriending since revokes it, and a
 * URL passed on to someone else shows nothing more than its viewer may see).
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

  /** An album image URL for `viewerId`. */
  signed(key: string, viewerId: string): string {
    const now = Math.floor(this.clock().getTime() / 1000);
    const exp = Math.ceil((now + this.ttlSeconds) / 3600) * 3600;
    return `${FILES_PREFIX}${key}?exp=${exp}&v=${viewerId}&sig=${this.sign(key, exp, viewerId)}`;
  }

  /** What `key` may be served as for this query; null when it may not be served. */
  grant(key: string, query: { exp?: string; v?: string; sig?: string }): FileGrant | null {
    if (PUBLIC_KEY.test(key)) return { kind: 'public' };
    const owner = SIGNED_KEY.exec(key)?.[1];
    if (!owner || !query.exp || !query.sig || !query.v || !/^\d+$/.test(query.exp) || !VIEWER.test(query.v)) return null;
    const exp = Number(query.exp);
    if (exp * 1000 <= this.clock().getTime()) return null;
    const expected = Buffer.from(this.sign(key, exp, query.v));
    const given = Buffer.from(query.sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    return { kind: 'signed', viewerId: query.v, ownerId: owner };
  }

  private sign(key: string, exp: number, viewerId: string): string {
    return createHmac('sha256', this.key).update(`${key}:${exp}:${viewerId}`).digest('base64url');
  }
}
