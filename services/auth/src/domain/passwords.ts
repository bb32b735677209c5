import argon2 from 'argon2';

/** argon2id with the library's defaults (64 MiB, t=3): OWASP's recommended floor. */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

export function verifyPassword(hash: string, password: string): Promise<boolean> {
  return argon2.verify(hash, password).catch(() => false);
}

// Verified against when the e-mail is unknown, so a login for a missing
// account takes as long as one with a wrong password (no account probing by timing).
let decoyHash: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  decoyHash ??= hashPassword('decoy-password-for-timing');
  await verifyPassword(await decoyHash, password);
}
