import { createHash, randomBytes } from 'node:crypto';
import { RESET_TOKEN_TTL_MS } from '@hoptrack/proto';

/**
 * Reset tokens are 256 random bits. Only their sha256 is stored, so a copy of
 * the database cannot be used to take over accounts.
 */
export function newResetToken(now: Date): { token: string; hash: string; expiresAt: Date } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashResetToken(token), expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS) };
}

export function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
