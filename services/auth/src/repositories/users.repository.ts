import { executeSql, queryRows, sql } from '@hoptrack/runtime';
import type { Db } from '../db';
import { Prisma, type User } from '../generated/prisma/client';

export type NewUser = Pick<User, 'email' | 'username' | 'displayName' | 'password'> & Partial<Pick<User, 'emailClaimed'>>;
export type UserChanges = Partial<
  Pick<
    User,
    | 'displayName'
    | 'bio'
    | 'profilePicture'
    | 'isProfilePrivate'
    | 'allowDirectMessages'
    | 'showOnlineStatus'
    | 'showEmailToFriends'
    | 'password'
    | 'pendingEmail'
    | 'emailVerificationToken'
    | 'emailVerificationExpires'
  >
> & { tokenVersion?: { increment: number } };

/**
 * Every change of an account: stamped with the service's clock (information),
 * and its version incremented in the same statement — the version is what
 * orders the account's snapshots in every other service (issue 38), so it
 * must move with each change and only here.
 */
const changed = (now: Date) => ({ updatedAt: now, version: { increment: 1 } });

/** All reads and writes of the users table. */
export const usersRepository = {
  /** Up to `limit` accounts changed at or after `since`, after `afterId` in id order (keyset pages: a re-announcement). */
  changedSince(db: Db, since: Date, afterId: string | null, limit: number): Promise<User[]> {
    return db.user.findMany({ where: { updatedAt: { gte: since }, ...(afterId ? { id: { gt: afterId } } : {}) }, orderBy: { id: 'asc' }, take: limit });
  },
  /** Which of these ids are accounts. */
  async existing(db: Db, ids: string[]): Promise<Set<string>> {
    return new Set((await db.user.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((u) => u.id));
  },
  findById(db: Db, id: string): Promise<User | null> {
    return db.user.findUnique({ where: { id } });
  },
  /** The account that claims the address: the only one any lookup by address finds, but login's. */
  findByEmail(db: Db, email: string): Promise<User | null> {
    return db.user.findFirst({ where: { email, emailClaimed: true } });
  },
  /** The newest `limit` accounts registered with an address they do not claim (login tries them first). */
  findUnclaimedByEmail(db: Db, email: string, limit: number): Promise<User[]> {
    return db.user.findMany({ where: { email, emailClaimed: false }, orderBy: { createdAt: 'desc' }, take: limit });
  },
  /** Up to `limit` ids of accounts that never claimed an address and were made before `before`. */
  async unclaimedMadeBefore(db: Db, before: Date, limit: number): Promise<string[]> {
    const rows = await db.user.findMany({
      where: { emailClaimed: false, isEmailVerified: false, createdAt: { lt: before } },
      select: { id: true },
      orderBy: { createdAt: 'asc' },
      take: limit,
    });
    return rows.map((row) => row.id);
  },
  findByUsername(db: Db, username: string): Promise<User | null> {
    return db.user.findFirst({ where: { username: { equals: username, mode: 'insensitive' } } });
  },
  /** Whether the account exists (its id alone is read). */
  async exists(db: Db, id: string): Promise<boolean> {
    return (await db.user.findUnique({ where: { id }, select: { id: true } })) !== null;
  },
  /** The account's e-mail address, or null when there is no account. */
  async findEmailById(db: Db, id: string): Promise<string | null> {
    return (await db.user.findUnique({ where: { id }, select: { email: true } }))?.email ?? null;
  },
  /** Locks the row for the rest of the transaction, so concurrent changes apply one after the other. */
  async lock(db: Prisma.TransactionClient, id: string): Promise<void> {
    await executeSql(db, sql`SELECT 1 FROM "users" WHERE "id" = ${id}::uuid FOR UPDATE`);
  },
  /** Locks the row (as `lock`), then reads it. */
  async lockById(db: Prisma.TransactionClient, id: string): Promise<User | null> {
    await usersRepository.lock(db, id);
    return db.user.findUnique({ where: { id } });
  },
  /** Locks and returns the id of the account whose verification link (hashed) is this one and still valid at `now`. */
  async lockIdByVerificationToken(db: Prisma.TransactionClient, tokenHash: string, now: Date): Promise<string | null> {
    const [found] = await queryRows<Array<{ id: string }>>(
      db,
      sql`SELECT "id" FROM "users"
        WHERE "email_verification_token" = ${tokenHash} AND "email_verification_expires" > ${now} FOR UPDATE`,
    );
    return found?.id ?? null;
  },
  /** Version 1, made at the service's clock (the unclaimed-account sweep counts its 7 days from it). */
  create(db: Db, data: NewUser, now: Date): Promise<User> {
    return db.user.create({ data: { ...data, createdAt: now, updatedAt: now } });
  },
  update(db: Db, id: string, changes: UserChanges, now: Date): Promise<User> {
    return db.user.update({ where: { id }, data: { ...changes, ...changed(now) } });
  },
  /** Stores the hash of a new verification link and its expiry (replacing the pending one). */
  setVerificationToken(db: Db, id: string, tokenHash: string, expiresAt: Date, now: Date): Promise<User> {
    return db.user.update({ where: { id }, data: { emailVerificationToken: tokenHash, emailVerificationExpires: expiresAt, ...changed(now) } });
  },
  /** The address waiting for its verification link; `email` stays until the link is opened. */
  setPendingEmail(db: Db, id: string, pendingEmail: string, now: Date): Promise<User> {
    return db.user.update({ where: { id }, data: { pendingEmail, ...changed(now) } });
  },
  /** The link was opened: verified, the link cleared, and a pending address (if any) becomes the account's. */
  markEmailVerified(db: Db, id: string, newEmail: string | null, now: Date): Promise<User> {
    return db.user.update({
      where: { id },
      data: {
        isEmailVerified: true,
        emailVerificationToken: null,
        emailVerificationExpires: null,
        // A proven new address is claimed: an account that had none claims this one (verifyEmail checked it is free).
        ...(newEmail ? { email: newEmail, emailClaimed: true, pendingEmail: null } : {}),
        ...changed(now),
      },
    });
  },
  /** The staff roles, replaced (issue 42); a change like the others, so its snapshot is newer. */
  setRoles(db: Db, id: string, roles: string[], now: Date): Promise<User> {
    return db.user.update({ where: { id }, data: { roles, ...changed(now) } });
  },
  /** A moderator's restriction, replaced (issue 42): a change like the others, so its snapshot is newer. */
  setRestriction(db: Db, id: string, restriction: { banned: boolean; suspendedUntil: Date | null }, now: Date): Promise<User> {
    return db.user.update({ where: { id }, data: { ...restriction, ...changed(now) } });
  },
  /** Everyone holding a staff role, by username (a handful: the console's list). */
  staff(db: Db): Promise<User[]> {
    return db.user.findMany({ where: { NOT: { roles: { isEmpty: true } } }, orderBy: { username: 'asc' }, take: 500 });
  },
  delete(db: Db, id: string): Promise<User> {
    return db.user.delete({ where: { id } });
  },
};

export function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';
}
