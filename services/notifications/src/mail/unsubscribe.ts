import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The token of an unsubscribe link: the person's id and an HMAC of it, so
 * the link works without signing in and cannot be made for someone else.
 * It does not expire (a mail from last year must still unsubscribe) and
 * does one harmless thing: turn that person's notification e-mail off.
 */
export class UnsubscribeTokens {
  constructor(private readonly secret: string) {}

  sign(userId: string): string {
    return `${Buffer.from(userId).toString('base64url')}.${this.mac(userId)}`;
  }

  /** The person's id, or null for a token this deployment did not sign. */
  verify(token: string): string | null {
    const [encoded, mac] = token.split('.');
    if (!encoded || !mac) return null;
    const userId = Buffer.from(encoded, 'base64url').toString();
    const expected = Buffer.from(this.mac(userId));
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected) ? userId : null;
  }

  private mac(userId: string): string {
    return createHmac('sha256', this.secret).update(`unsubscribe:${userId}`).digest('base64url');
  }
}
