import { createHash } from 'node:crypto';

/** A Redis key for an e-mail address: a hash, so no key carries an address (an erased person's would outlive their account by a window, docs/decisions.md). */
export const emailKey = (email: string): string => createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 32);

/**
 * Every window auth counts in Redis, by the key it counts under. The
 * handlers count with these and the erasure deletes the person's by the
 * same names, so an erasure touches a handful of keys instead of scanning
 * the key space for the person's id (issue 41: a cost in proportion to the
 * person, not to everyone's keys). Addresses are hashed (emailKey): no key
 * carries one.
 */
export const limitKeys = {
  register: (ip: string) => `register:${ip}`,
  forgot: (ip: string) => `forgot:${ip}`,
  /** Per address and account: the only person's key that is not deleted by name (the address it came from is not kept); it holds no id and no address, and goes with its window. */
  login: (ip: string, email: string) => `login:${ip}:${emailKey(email)}`,
  loginFailed: (email: string) => `login-failed:${emailKey(email)}`,
  reauth: (userId: string) => `reauth:${userId}`,
  mailFrom: (userId: string) => `mail-from:${userId}`,
  mailTo: (email: string) => `mail-to:${emailKey(email)}`,
  resendVerification: (userId: string) => `resend-verification:${userId}`,
};

/** The windows that name one person (their id, or their address's hash), as the erasure deletes them. */
export function personLimitKeys(userId: string, email: string | null): string[] {
  const byId = [limitKeys.reauth(userId), limitKeys.mailFrom(userId), limitKeys.resendVerification(userId)];
  return email ? [...byId, limitKeys.loginFailed(email), limitKeys.mailTo(email)] : byId;
}
