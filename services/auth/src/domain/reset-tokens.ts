import { createHash, randomBytes } from 'node:crypto';
import { EMAIL_VERIFICATION_TTL_MS, RESET_TOKEN_TTL_MS } from '@hoptrack/proto';

/**
 * Reset tokens are 256 random bits. Only their sha256 is stored, so a copy of
 * the database cannot be used to take over accounts.
 */
export function newResetToken(now: Date): { token: string; hash: string; expiresAt: Date } {
  return newToken(now, RESET_TOKEN_TTL_MS);
}

/** E-mail verification links use the same machinery (256 bits, stored hashed), valid for 24 h. */
export function newVerificationToken(now: Date): { token: string; hash: string; expiresAt: Date } {
  return newToken(now, EMAIL_VERIFICATION_TTL_MS);
}

function newToken(now: Date, ttlMs: number): { token: string; hash: string; expiresAt: Date } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashResetToken(token), expiresAt: new Date(now.getTime() + ttlMs) };
}

export function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
