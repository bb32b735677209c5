import { FileSignature, filePath, FILES_PREFIX } from '@hoptrack/runtime';

export { FILES_PREFIX };
/**
 * Served without a signature: profile pictures (public like the name beside
 * them), and session photos stored before they were owner-scoped (their URL,
 * an unguessable id, is shown only where the sessions service allows).
 */
const PUBLIC_KEY = /^(avatars\/[0-9a-f-]{36}\/[0-9a-f-]{36}|uploads\/[0-9a-f-]{36})\.webp$/;
/**
 * Album images (`thumbs|display/<owner>/<photo>.webp`) and session photos
 * (`uploads/<owner>/<photo>.webp`): served only with a signature made for a
 * viewer who may see the owner's photos (the sessions service signs its own).
 */
const SIGNED_KEY = /^(?:thumbs|display|uploads)\/([0-9a-f-]{36})\/[0-9a-f-]{36}\.webp$/;

/**
 * A data export's zip (`exports/<owner>/<export>.zip`, issue 24): served only
 * with a valid, unexpired signature made for its owner (auth signs it when
 * the owner asks for GET /api/me/export/{id}), never publicly.
 */
const EXPORT_KEY = /^exports\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.zip$/;

/**
 * What a file URL allows: a public file, an album image for one viewer (whose
 * right the route re-checks), or an export's zip for its owner.
 */
export type FileGrant = { kind: 'public' } | { kind: 'signed'; viewerId: string; ownerId: string } | { kind: 'export'; ownerId: string };

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
  private readonly signature: FileSignature;

  constructor(secret: string, ttlSeconds: number, clock: () => Date = () => new Date()) {
    this.signature = new FileSignature(secret, ttlSeconds, clock);
  }

  public(key: string): string {
    return filePath(key);
  }

  /** An album image URL for `viewerId`. */
  signed(key: string, viewerId: string): string {
    return this.signature.url(key, viewerId);
  }

  /** What `key` may be served as for this query; null when it may not be served. */
  grant(key: string, query: { exp?: string; v?: string; sig?: string }): FileGrant | null {
    if (PUBLIC_KEY.test(key)) return { kind: 'public' };
    const exportOwner = EXPORT_KEY.exec(key)?.[1];
    if (exportOwner) return this.signature.verify(key, query) === exportOwner ? { kind: 'export', ownerId: exportOwner } : null;
    const owner = SIGNED_KEY.exec(key)?.[1];
    const viewerId = owner ? this.signature.verify(key, query) : null;
    return owner && viewerId ? { kind: 'signed', viewerId, ownerId: owner } : null;
  }
}
