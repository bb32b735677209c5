import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { UPLOADS_PREFIX } from '@hoptrack/proto';
import { filePath } from './file-keys';
import { forbidden } from '../http/errors';

/** Where upload links point: re-exported for auth, which recognises an upload link; its one definition is the upload contract's path (proto). */
export { UPLOADS_PREFIX };

/**
 * An upload URL carries its own permission: who may upload, what, and until
 * when, signed with a key derived from FILE_URL_SECRET. The browser PUTs to
 * our own origin, so no S3 endpoint, CORS rule or credential is exposed.
 * The media service issues and takes links; the auth service reads one back
 * when a client names its picture by the link it was given (spec section 7).
 */
const claims = z.object({ u: z.uuid(), p: z.literal('avatar'), id: z.uuid(), exp: z.number().int() });
export type UploadClaims = z.infer<typeof claims>;

const EXPIRED = 'Upload link expired or invalid';

/**
 * Where the picture uploaded on a link is stored: named by the link's own id,
 * so the link names its picture (a link takes one upload; see the media
 * service's upload route).
 */
export function avatarKey(link: Pick<UploadClaims, 'u' | 'id'>): string {
  return `avatars/${link.u}/${link.id}.webp`;
}

/** The served URL of the picture uploaded on a link. */
export function avatarUrl(link: Pick<UploadClaims, 'u' | 'id'>): string {
  return filePath(avatarKey(link));
}

export class UploadTokens {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly clock: () => Date = () => new Date(),
  ) {
    // A key of its own, derived from the shared secret: an upload token is never a valid bearer token.
    this.key = createHmac('sha256', secret).update('hoptrack-media-upload-v1').digest();
  }

  issue(userId: string, ttlSeconds: number): { token: string; url: string; claims: UploadClaims } {
    const value: UploadClaims = {
      u: userId,
      p: 'avatar',
      id: randomUUID(),
      exp: Math.floor(this.clock().getTime() / 1000) + ttlSeconds,
    };
    const body = Buffer.from(JSON.stringify(value)).toString('base64url');
    const token = `${body}.${this.sign(body)}`;
    return { token, url: `${UPLOADS_PREFIX}${token}`, claims: value };
  }

  /** The claims of a token this deployment issued and that has not expired; 403 otherwise. */
  verify(token: string): UploadClaims {
    const found = this.claimsOf(token);
    if (!found) throw forbidden(EXPIRED);
    return found;
  }

  /** Like verify, answering null instead of throwing. */
  claimsOf(token: string): UploadClaims | null {
    const [body, signature, extra] = token.split('.');
    if (!body || !signature || extra !== undefined) return null;
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    const parsed = claims.safeParse(safeJson(Buffer.from(body, 'base64url').toString()));
    if (!parsed.success || parsed.data.exp * 1000 <= this.clock().getTime()) return null;
    return parsed.data;
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
