import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { forbidden } from '@hoptrack/runtime';
import { z } from 'zod';

/**
 * An upload URL carries its own permission: who may upload, what, and until
 * when, signed with a key only the media service derives. The browser PUTs
 * to our own origin, so no S3 endpoint, CORS rule or credential is exposed.
 */
const claims = z.object({ u: z.uuid(), p: z.literal('avatar'), id: z.uuid(), exp: z.number().int() });
export type UploadClaims = z.infer<typeof claims>;

const EXPIRED = 'Upload link expired or invalid';

export class UploadTokens {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly clock: () => Date = () => new Date(),
  ) {
    // A key of its own, derived from the shared secret: an upload token is never a valid bearer token.
    this.key = createHmac('sha256', secret).update('hoptrack-media-upload-v1').digest();
  }

  issue(userId: string): { token: string; claims: UploadClaims } {
    const value: UploadClaims = {
      u: userId,
      p: 'avatar',
      id: randomUUID(),
      exp: Math.floor(this.clock().getTime() / 1000) + this.ttlSeconds,
    };
    const body = Buffer.from(JSON.stringify(value)).toString('base64url');
    return { token: `${body}.${this.sign(body)}`, claims: value };
  }

  verify(token: string): UploadClaims {
    const [body, signature, extra] = token.split('.');
    if (!body || !signature || extra !== undefined) throw forbidden(EXPIRED);
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw forbidden(EXPIRED);
    const parsed = claims.safeParse(safeJson(Buffer.from(body, 'base64url').toString()));
    if (!parsed.success || parsed.data.exp * 1000 <= this.clock().getTime()) throw forbidden(EXPIRED);
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
