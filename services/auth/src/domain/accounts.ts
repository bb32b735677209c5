import { randomUUID } from 'node:crypto';
import type {
  ChangeEmailRequest,
  ChangePasswordRequest,
  Device,
  EventType,
  LoginRequest,
  PrivacyUpdateRequest,
  ProfileUpdateRequest,
  RegisterRequest,
} from '@hoptrack/proto';
import { PASSWORD_CHANGED_SIGN_IN_AGAIN, SIGNED_OUT_ON_ANOTHER_DEVICE, type Role } from '@hoptrack/proto';
import { conflict, forbidden, HttpError, notFound, unauthorized, type Logger, type Outbox, type TokenClaims, type TokenService } from '@hoptrack/runtime';
import type { PrismaClient, User } from '../db';
import type { Prisma } from '../generated/prisma/client';
import { dataExportsRepository as dataExports } from '../repositories/data-exports.repository';
import type { ErasureLedger } from '../repositories/erasure-ledger.repository';
import { erasuresRepository as erasures } from '../repositories/erasures.repository';
import { mailJobsRepository as mailJobs } from '../repositories/mail-jobs.repository';
import type { MailLimits } from './mail-limits';
import { passwordResetsRepository as passwordResets } from '../repositories/password-resets.repository';
import { isUniqueViolation, usersRepository as users, type UserChanges } from '../repositories/users.repository';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords';
import { hashResetToken, newResetToken, newVerificationToken } from './reset-tokens';
import { rolesOf, toSnapshot } from './user-views';
import { restrictionMessage } from './account-actions';
import { devicesRepository as devices } from '../repositories/devices.repository';
import { deviceName, networkOf, placeOf, type SignInClient } from './devices';
import { addressTakenVariable } from './mailer';

export interface AccountsDeps {
  prisma: PrismaClient;
  /** Where every deletion is recorded before it commits, outside the backed-up data (a restore erases them again). */
  ledger: Pick<ErasureLedger, 'record' | 'pageSince'>;
  outbox: Outbox;
  /** Asks the relay to publish now what the last commit wrote to the outbox. */
  onEventsCommitted: () => void;
  tokens: TokenService;
  /** Asks the mail relay to send now what the last commit queued (the mail leaves off the request path). */
  onMailQueued: () => void;
  clock: () => Date;
  publicWebUrl: string;
  /** Development and tests: the reset token and link come back in the response. */
  exposeResetToken: boolean;
  logger: Logger;
  /** Waits until the other services applied these events (a private switch answers only then). */
  settle?: (eventIds: string[]) => Promise<unknown>;
  /** The attempt limits of a password asked again (as login's); none in tests that do not need them. */
  passwordAttempts?: PasswordAttempts;
  /** The limits of mail sent on a person's behalf (an e-mail change's link, a resent one). */
  mailLimits?: MailLimits;
}

/**
 * Where a signed-in person's password is asked again (a password or e-mail
 * change, a deletion), wrong guesses count against the account as login's do
 * (issue 39: 30 guesses with only a stolen token went unlimited).
 */
export interface PasswordAttempts {
  /** Throws 429 when the account may not try now. */
  allow(user: Pick<User, 'id' | 'email'>): Promise<void>;
  /** A wrong password, counted against the account. */
  failed(user: Pick<User, 'id' | 'email'>): Promise<void>;
}

/**
 * The columns that cancel an e-mail change not yet confirmed (its link dies
 * with them); nothing when none is pending. A password change or reset
 * cancels it (issue 39): a stolen session's change must not survive the
 * owner taking the account back.
 */
function pendingChangeCancelled(user: Pick<User, 'pendingEmail'> | null): UserChanges {
  return user?.pendingEmail ? { pendingEmail: null, emailVerificationToken: null, emailVerificationExpires: null } : {};
}

export interface Session {
  token: string;
  user: User;
}

const INVALID_RESET = 'Invalid or expired reset token';
/** How many of an address's unclaimed accounts login tries before its owner's; a failed login costs this many checks and one. */
export const UNCLAIMED_TRIED_AT_LOGIN = 3;
/** An unclaimed account never moved to an address of its own is erased this long after it was made. */
export const UNCLAIMED_ACCOUNT_LIFETIME_MS = 7 * 24 * 3600_000;
/** Mirrors the reset wording: unknown, used and expired tokens look alike. */
const INVALID_VERIFICATION = 'Invalid or expired verification token';
export const ALREADY_VERIFIED = 'Email address is already verified';
/** What an unverified account may not do (docs/decisions.md, 'E-mail verification'). */
export const UNVERIFIED_BIO_LINK = 'Please verify your e-mail address before adding links to your bio.';
const LINK_IN_TEXT = /https?:\/\/|www\./i;
export const NO_PROFILE_PICTURE = 'You have no profile picture to remove';

/** Accounts, credentials and the user's own settings; every change announces itself through the outbox. */
export class Accounts {
  constructor(private readonly deps: AccountsDeps) {}

  /**
   * A registration with an address another account claims answers as a fresh
   * one (the spec signs the person in at once, so a refusal would tell anyone
   * which addresses have accounts): the same hash, insert and one mail job,
   * but the account does not claim the address (it can never verify it) and
   * the owner is mailed instead of a link (docs/decisions.md, 'Registration
   * does not tell which addresses have accounts'). Usernames are public, and
   * a taken one is still refused.
   */
  async register(input: RegisterRequest, requestId: string, client: SignInClient | null): Promise<Session> {
    const user = await this.createAccount(input, requestId).catch(async (err: unknown) => {
      // Lost a race with a concurrent registration of the same username (refused) or address (made again, unclaimed).
      if (!isUniqueViolation(err)) throw err;
      return this.createAccount(input, requestId);
    });
    return { user, token: client ? await this.signIn(user, client) : await this.deps.tokens.sign({ userId: user.id, tokenVersion: user.tokenVersion }) };
  }

  /** `client` null: an account made without signing anyone in (the demo seed), its token tied to no device. */
  private async createAccount(input: RegisterRequest, requestId: string): Promise<User> {
    if (await users.findByUsername(this.deps.prisma, input.username)) throw conflict('Username already taken', 'username');
    const owner = await users.findByEmail(this.deps.prisma, input.email);
    const password = await hashPassword(input.password);
    const verification = newVerificationToken(this.deps.clock());
    // The account, its verification link (hashed) or the owner's notice, and the mail job commit together: no account without its mail.
    const user = await this.inTransactionWithEvent('user.registered.v1', requestId, async (tx) => {
      const created = await users.create(tx, { email: input.email, username: input.username, displayName: input.displayName, password, emailClaimed: !owner }, this.deps.clock());
      if (!owner) return this.queueVerification(tx, created, verification);
      await this.queueAddressTaken(tx, owner, 'address-taken-registration');
      // The same statements as a fresh account's (its version too): an update, with no link to store.
      return users.update(tx, created.id, {}, this.deps.clock());
    });
    this.deps.onMailQueued();
    return user;
  }

  /**
   * The accounts registered with this address that do not claim it are tried
   * first (newest first, a few), then the one that claims it: whoever made an
   * unclaimed account signs in with what they typed. A failure always costs
   * the same number of password checks, so that how many accounts share the
   * address (whether it has an owner) does not show in the time.
   */
  async login(input: LoginRequest, client: SignInClient): Promise<Session> {
    const unclaimed = await users.findUnclaimedByEmail(this.deps.prisma, input.email, UNCLAIMED_TRIED_AT_LOGIN);
    const owner = await users.findByEmail(this.deps.prisma, input.email);
    const candidates = owner ? [...unclaimed, owner] : unclaimed;
    for (const user of candidates) {
      if (await verifyPassword(user.password, input.password)) {
        // Suspended or banned (issue 42): told so, with the end date, only to whoever knows the password.
        const restricted = restrictionMessage(user, this.deps.clock());
        if (restricted) throw forbidden(restricted);
        return { user, token: await this.signIn(user, client) };
      }
    }
    for (let checks = candidates.length; checks < UNCLAIMED_TRIED_AT_LOGIN + 1; checks += 1) await burnPasswordCheck(input.password);
    throw unauthorized('Invalid email or password');
  }

  /**
   * Answers the same, in the same time, whether or not the e-mail exists, so
   * it cannot be used to find accounts: both cases write one mail job in one
   * transaction (the unknown address's is 'skipped', never sent), and neither
   * waits for SMTP: the mail relay sends the mail after the answer.
   */
  async forgotPassword(email: string): Promise<{ token?: string; resetUrl?: string }> {
    const user = await users.findByEmail(this.deps.prisma, email);
    const reset = newResetToken(this.deps.clock());
    const resetUrl = `${this.deps.publicWebUrl.replace(/\/$/, '')}/reset-password?token=${encodeURIComponent(reset.token)}`;
    await this.deps.prisma.$transaction(async (tx) => {
      // The same three statements either way. A new link supersedes the account's older ones.
      await passwordResets.deleteForUser(tx, user?.id ?? randomUUID());
      await passwordResets.create(tx, { tokenHash: reset.hash, userId: user?.id ?? null, expiresAt: reset.expiresAt });
      await mailJobs.create(
        tx,
        user
          ? { id: randomUUID(), kind: 'password-reset', recipient: user.email, link: resetUrl }
          : { id: randomUUID(), kind: 'unknown-address', status: 'skipped' },
      );
    });
    // Both: the relay's pass for an unknown address finds nothing to send, at the same cost to the next requests.
    this.deps.onMailQueued();
    if (!user) {
      this.deps.logger.info('password reset requested for an unknown e-mail');
      return {};
    }
    return this.deps.exposeResetToken ? { token: reset.token, resetUrl } : {};
  }

  async verifyResetToken(token: string): Promise<{ email: string }> {
    const user = await this.findByValidResetToken(token);
    return { email: user.email };
  }

  /** Single use: the token is cleared, and every bearer token issued before is revoked. */
  async resetPassword(token: string, newPassword: string, requestId: string): Promise<void> {
    const user = await this.findByValidResetToken(token);
    const password = await hashPassword(newPassword);
    await this.inTransactionWithEvent('user.updated.v1', requestId, async (tx) => {
      // Single use: of two concurrent resets with the same token, one deletes the row, the other finds none.
      const used = await passwordResets.deleteToken(tx, hashResetToken(token), user.id);
      if (used !== 1) throw new HttpError(400, INVALID_RESET);
      const locked = await users.lockById(tx, user.id);
      await passwordResets.deleteForUser(tx, user.id);
      // Every device is signed out: their tokens die with the version, their rows here.
      await devices.deleteAllBut(tx, user.id, undefined);
      await this.queuePasswordChanged(tx, user.email);
      return users.update(tx, user.id, { password, tokenVersion: { increment: 1 }, ...pendingChangeCancelled(locked) }, this.deps.clock());
      // Answered once every service knows the new token version: old tokens are refused everywhere from then on.
    }, { settle: true });
    this.deps.onMailQueued();
  }

  /**
   * Single use: the row is locked and the hash cleared in the same transaction.
   * A pending change of address takes effect here, and only here: the new
   * address is proven, and the other services learn it (user.updated.v1).
   */
  async verifyEmail(token: string, requestId: string): Promise<void> {
    let eventId: string | undefined;
    await this.deps.prisma.$transaction(async (tx) => {
      const found = await users.lockIdByVerificationToken(tx, hashResetToken(token), this.deps.clock());
      if (!found) throw new HttpError(400, INVALID_VERIFICATION);
      const user = await users.findById(tx, found);
      if (!user) throw new HttpError(400, INVALID_VERIFICATION);
      const newEmail = user.pendingEmail;
      // An account that does not claim its address can only verify a new one (no link for its own is ever made: defence in depth).
      if (!newEmail && !user.emailClaimed) throw new HttpError(400, INVALID_VERIFICATION);
      if (newEmail && (await users.findByEmail(tx, newEmail))) throw conflict('Email already registered', 'email');
      const updated = await users.markEmailVerified(tx, user.id, newEmail, this.deps.clock());
      // The account moved: reset links mailed to the old address no longer open it (issue 39).
      if (newEmail) await passwordResets.deleteForUser(tx, user.id);
      if (newEmail) eventId = (await this.deps.outbox.enqueue(tx, 'user.updated.v1', toSnapshot(updated), requestId)).id;
    });
    if (eventId) this.deps.onEventsCommitted();
  }

  /** Every device's token dies (token version, as a reset); the answer carries this device's new one. */
  async changePassword(userId: string, input: ChangePasswordRequest, requestId: string, asking: { sessionId?: string; client: SignInClient }): Promise<Session> {
    await this.assertPassword(userId, input.currentPassword, 'currentPassword');
    if (input.newPassword === input.currentPassword) throw new HttpError(400, 'New password must be different from the current one', 'newPassword');
    const password = await hashPassword(input.newPassword);
    const user = await this.inTransactionWithEvent('user.updated.v1', requestId, async (tx) => {
      const locked = await users.lockById(tx, userId);
      // New credentials end every way in made for the old ones: reset links, and an e-mail change not yet confirmed.
      await passwordResets.deleteForUser(tx, userId);
      // This device stays signed in (with a new token); every other one is signed out.
      await devices.deleteAllBut(tx, userId, asking.sessionId);
      if (locked) await this.queuePasswordChanged(tx, locked.email);
      return users.update(tx, userId, { password, tokenVersion: { increment: 1 }, ...pendingChangeCancelled(locked) }, this.deps.clock());
    }, { settle: true });
    this.deps.onMailQueued();
    const kept = asking.sessionId ? await devices.find(this.deps.prisma, userId, asking.sessionId) : null;
    if (!kept) return { user, token: await this.signIn(user, asking.client) };
    await devices.extend(this.deps.prisma, kept.id, this.tokenExpiry());
    return { user, token: await this.issueToken(user, kept.id) };
  }

  /** Where the person is signed in, last used first; `current` is the asking token's sign-in. */
  async devices(userId: string, currentSessionId: string | undefined): Promise<Device[]> {
    const rows = await devices.listLive(this.deps.prisma, userId, this.deps.clock());
    return rows.map((row) => ({
      id: row.id,
      device: deviceName(row.userAgent),
      place: placeOf(row.network),
      signedInAt: row.createdAt.toISOString(),
      lastUsedAt: row.lastUsedAt.toISOString(),
      current: row.id === currentSessionId,
    }));
  }

  /**
   * Signs one of the person's devices out (this one too: the app's "Sign
   * out"). Its row goes with user.device.revoked.v1 in one transaction, and
   * the answer waits until every service applied the event (the barrier, as
   * a password change's): from then on its tokens are refused everywhere.
   * Someone else's device is not found, as an unknown one.
   */
  async signOutDevice(userId: string, deviceId: string, requestId: string): Promise<void> {
    const eventId = await this.deps.prisma.$transaction(async (tx) => {
      const gone = await devices.delete(tx, userId, deviceId);
      if (!gone) throw notFound('Device not found');
      const revoked = { userId, deviceId: gone.id, expiresAt: gone.expiresAt.toISOString() };
      return (await this.deps.outbox.enqueue(tx, 'user.device.revoked.v1', revoked, requestId)).id;
    });
    this.deps.onEventsCommitted();
    await this.deps.settle?.([eventId]);
  }

  /**
   * The new address is mailed a verification link and takes effect when it is
   * opened (verifyEmail); the old address is told now, so a stolen session
   * cannot move the account away unnoticed.
   */
  async changeEmail(userId: string, input: ChangeEmailRequest): Promise<User> {
    const current = await this.assertPassword(userId, input.currentPassword, 'currentPassword');
    if (input.newEmail === current.email) throw new HttpError(400, 'That is already your e-mail address', 'newEmail');
    await this.deps.mailLimits?.sender(userId);
    await this.deps.mailLimits?.address(input.newEmail);
    const user = await this.deps.prisma.$transaction(async (tx) => {
      const locked = await users.lockById(tx, userId);
      if (!locked) throw notFound('User not found');
      // An address another account claims answers as a free one (no enumeration): the owner is told instead of
      // mailed a link, and the change never takes effect (its link is stored hashed and never sent).
      const owner = await users.findByEmail(tx, input.newEmail);
      const pending = await users.setPendingEmail(tx, userId, input.newEmail, this.deps.clock());
      await mailJobs.create(tx, { id: randomUUID(), kind: 'email-change-notice', recipient: locked.email, link: input.newEmail });
      const verification = newVerificationToken(this.deps.clock());
      if (!owner) return this.queueVerification(tx, pending, verification, input.newEmail, 'email-change-verification');
      await this.queueAddressTaken(tx, owner, 'address-taken-change');
      return users.setVerificationToken(tx, userId, verification.hash, verification.expiresAt, this.deps.clock());
    });
    this.deps.onMailQueued();
    return user;
  }

  /**
   * The account goes at once: the row (so auth refuses its tokens), its reset
   * links and unsent mail, in the transaction that writes user.deleted.v1 and
   * the erasure's record. The answer waits until every service applied the
   * deletion to its people and graph tables (the barrier), so from then on
   * its tokens are refused, its profile answers 404 and search forgets it
   * everywhere; each service's erasure of the rest follows (docs/decisions.md).
   */
  async deleteAccount(userId: string, password: string, requestId: string): Promise<void> {
    await this.assertPassword(userId, password, 'password');
    const eventId = await this.erase(userId, requestId);
    if (eventId) await this.deps.settle?.([eventId]);
  }

  /**
   * Erases an account brought back by a restore from a backup taken before its
   * deletion (the ledger names it; services/auth/src/reapply-erasures.ts): the
   * same erasure as a deletion, without the password (the person asked when
   * they deleted it). False when the restored data does not hold the account.
   */
  async eraseRestored(userId: string, requestId: string): Promise<boolean> {
    return (await this.erase(userId, requestId)) !== null;
  }

  /**
   * Bounds what registrations with taken addresses can store: an unclaimed
   * account never moved to an address of its own is erased 7 days after it
   * was made, by the deletion's own path (user.deleted.v1 to every service).
   * A page at a time; how many went.
   */
  async eraseUnclaimedExpired(requestId: string): Promise<number> {
    const before = new Date(this.deps.clock().getTime() - UNCLAIMED_ACCOUNT_LIFETIME_MS);
    let erased = 0;
    for (;;) {
      const ids = await users.unclaimedMadeBefore(this.deps.prisma, before, 100);
      for (const id of ids) if ((await this.erase(id, requestId)) !== null) erased += 1;
      if (ids.length < 100) break;
    }
    if (erased > 0) this.deps.logger.info({ erased }, 'unclaimed accounts past their 7 days erased');
    return erased;
  }

  /** The deletion's one transaction; the ledger has the id first, so a restore can never miss it. Null: no such account. */
  private async erase(userId: string, requestId: string): Promise<string | null> {
    await this.deps.ledger.record(userId, this.deps.clock());
    let eventId: string | null = null;
    await this.deps.prisma.$transaction(async (tx) => {
      const user = await users.lockById(tx, userId);
      if (!user) return;
      // An unclaimed account's address is its owner's: their mail, events and keys are not this erasure's to scrub.
      const own = user.emailClaimed ? [user.email] : [];
      await erasures.open(tx, userId, own[0] ?? '');
      await passwordResets.deleteForUser(tx, userId);
      await dataExports.deleteOwnedBy(tx, userId);
      const addresses = [...own, ...(user.pendingEmail ? [user.pendingEmail] : [])];
      await mailJobs.deleteAddressedTo(tx, addresses);
      await users.delete(tx, userId);
      eventId = (await this.deps.outbox.enqueue(tx, 'user.deleted.v1', { userId }, requestId)).id;
    });
    if (eventId) this.deps.onEventsCommitted();
    return eventId;
  }

  /**
   * A people read model missed events past the streams' age and asked
   * (user.changes.requested.v1): every account changed since `since` is
   * announced again (its current snapshot, ordered by version, so a consumer
   * that has it changes nothing) and every deletion the ledger recorded since
   * (user.deleted.v1; a replay erases nothing more where it was applied).
   * Page by page: the cost is the changes since, not the history.
   */
  async reannounceSince(since: Date, requestId: string): Promise<{ updated: number; deleted: number }> {
    const PAGE = 500;
    let updated = 0;
    let deleted = 0;
    for (let after: string | null = null; ; ) {
      const page = await users.changedSince(this.deps.prisma, since, after, PAGE);
      await this.deps.prisma.$transaction(async (tx) => {
        for (const user of page) await this.deps.outbox.enqueue(tx, 'user.updated.v1', toSnapshot(user), requestId);
      });
      updated += page.length;
      if (page.length < PAGE) break;
      after = page.at(-1)?.id ?? null;
    }
    for (let after: string | null = null; ; ) {
      const ids = await this.deps.ledger.pageSince(since, after, PAGE);
      // A ledger entry whose deletion failed (the account is still here) was announced above, not as deleted.
      const alive = await users.existing(this.deps.prisma, ids);
      const gone = ids.filter((id) => !alive.has(id));
      await this.deps.prisma.$transaction(async (tx) => {
        for (const userId of gone) await this.deps.outbox.enqueue(tx, 'user.deleted.v1', { userId }, requestId);
      });
      deleted += gone.length;
      if (ids.length < PAGE) break;
      after = ids.at(-1) ?? null;
    }
    this.deps.onEventsCommitted();
    this.deps.logger.info({ since: since.toISOString(), updated, deleted }, 'accounts announced again for a read model that missed events');
    return { updated, deleted };
  }

  /** A new link replaces the pending one (the older link stops working). */
  async resendVerification(userId: string): Promise<void> {
    await this.deps.prisma.$transaction(async (tx) => {
      const user = await users.lockById(tx, userId);
      if (!user) throw notFound('User not found');
      // A pending change of address is what waits for a link, even on a verified account.
      if (user.isEmailVerified && !user.pendingEmail) throw new HttpError(400, ALREADY_VERIFIED);
      const change = user.pendingEmail !== null;
      const address = user.pendingEmail ?? user.email;
      await this.deps.mailLimits?.address(address);
      const verification = newVerificationToken(this.deps.clock());
      // An address this account may not have (another claims it) gets no link: the answer is the usual one, the job is skipped.
      const claimedByOther = change ? (await users.findByEmail(tx, address)) !== null : !user.emailClaimed;
      if (!claimedByOther) {
        await this.queueVerification(tx, user, verification, address, change ? 'email-change-verification' : 'email-verification');
        return;
      }
      await mailJobs.create(tx, { id: randomUUID(), kind: 'address-unverifiable', status: 'skipped' });
      await users.setVerificationToken(tx, user.id, verification.hash, verification.expiresAt, this.deps.clock());
    });
    this.deps.onMailQueued();
  }

  async me(userId: string): Promise<User> {
    const user = await users.findById(this.deps.prisma, userId);
    if (!user) throw notFound('User not found');
    return user;
  }

  /** Answers once every service applied it: 'private' means hidden from non-friends from that moment. */
  updatePrivacy(userId: string, changes: PrivacyUpdateRequest, requestId: string): Promise<User> {
    return this.change(userId, changes, requestId, { settle: true });
  }

  async updateProfile(userId: string, changes: ProfileUpdateRequest, requestId: string): Promise<User> {
    // Throwaway accounts advertising through their profile is the abuse verification holds back:
    // until the address is proven, a bio cannot carry links (docs/decisions.md).
    if (changes.bio && LINK_IN_TEXT.test(changes.bio) && !(await this.me(userId)).isEmailVerified) throw forbidden(UNVERIFIED_BIO_LINK);
    return this.change(userId, changes, requestId);
  }

  setProfilePicture(userId: string, profilePictureUrl: string, requestId: string): Promise<User> {
    return this.change(userId, { profilePicture: profilePictureUrl }, requestId);
  }

  /**
   * Back to the initials (issue 40). The user.updated.v1 snapshot tells every
   * service, so cached pictures go wherever people are shown; the file itself
   * is left to media's orphan sweep, which deletes an avatar its owner no
   * longer names once the grace period is past (as for a replaced picture).
   */
  async removeProfilePicture(userId: string, requestId: string): Promise<User> {
    if (!(await this.me(userId)).profilePicture) throw notFound(NO_PROFILE_PICTURE);
    return this.change(userId, { profilePicture: null }, requestId);
  }

  /** Tokens issued before the last password reset are refused, and those of a device signed out; the device's last use is noted. */
  async isTokenCurrent(claims: TokenClaims): Promise<{ roles: Role[] } | null> {
    const user = await users.findById(this.deps.prisma, claims.userId);
    if (user === null) return null;
    // Refused with the reason, which the app's sign-in screen shows (issue 40, item 15).
    if (user.tokenVersion !== claims.tokenVersion) throw unauthorized(PASSWORD_CHANGED_SIGN_IN_AGAIN);
    const restricted = restrictionMessage(user, this.deps.clock());
    if (restricted) throw unauthorized(restricted);
    // The roles from the same row: auth's own staff routes check them as every service does (issue 42).
    const current = { roles: rolesOf(user) };
    if (!claims.sessionId) return current;
    if (!(await devices.find(this.deps.prisma, claims.userId, claims.sessionId))) throw unauthorized(SIGNED_OUT_ON_ANOTHER_DEVICE);
    await devices.touch(this.deps.prisma, claims.sessionId, this.deps.clock());
    return current;
  }

  /** The password of a signed-in person, asked again before a change of credentials or a deletion. */
  private async assertPassword(userId: string, password: string, field: string): Promise<User> {
    const user = await this.me(userId);
    await this.deps.passwordAttempts?.allow(user);
    if (!(await verifyPassword(user.password, password))) {
      await this.deps.passwordAttempts?.failed(user);
      throw new HttpError(400, field === 'password' ? 'Password is incorrect' : 'Current password is incorrect', field);
    }
    return user;
  }

  private async queueVerification(
    tx: Prisma.TransactionClient,
    user: User,
    verification: { token: string; hash: string; expiresAt: Date },
    /** Where the link goes: the account's address, or the new one of a pending change. */
    address: string = user.email,
    kind: 'email-verification' | 'email-change-verification' = 'email-verification',
  ): Promise<User> {
    const verifyUrl = `${this.deps.publicWebUrl.replace(/\/$/, '')}/verify-email?token=${encodeURIComponent(verification.token)}`;
    // The link is cleared from the job once sent.
    await mailJobs.create(tx, { id: randomUUID(), kind, recipient: address, link: verifyUrl });
    return users.setVerificationToken(tx, user.id, verification.hash, verification.expiresAt, this.deps.clock());
  }

  /** The owner of an address someone else tried to use is told, with their username and the way in. */
  private async queueAddressTaken(tx: Prisma.TransactionClient, owner: User, kind: 'address-taken-registration' | 'address-taken-change'): Promise<void> {
    const signInUrl = `${this.deps.publicWebUrl.replace(/\/$/, '')}/forgot-password`;
    await mailJobs.create(tx, { id: randomUUID(), kind, recipient: owner.email, link: addressTakenVariable(owner.username, signInUrl) });
  }

  /** The owner is told of every new password, with the way back in (a reset link asked for at the forgot-password page). */
  private async queuePasswordChanged(tx: Prisma.TransactionClient, address: string): Promise<void> {
    const forgotUrl = `${this.deps.publicWebUrl.replace(/\/$/, '')}/forgot-password`;
    await mailJobs.create(tx, { id: randomUUID(), kind: 'password-changed', recipient: address, link: forgotUrl });
  }

  private issueToken(user: User, sessionId: string): Promise<string> {
    return this.deps.tokens.sign({ userId: user.id, tokenVersion: user.tokenVersion, sessionId });
  }

  /** When a token signed now expires. */
  private tokenExpiry(): Date {
    return new Date(this.deps.clock().getTime() + this.deps.tokens.lifetimeSeconds * 1000);
  }

  /** A new sign-in: its device row, and a token naming it. */
  private async signIn(user: User, client: SignInClient): Promise<string> {
    const device = await devices.create(this.deps.prisma, {
      userId: user.id,
      userAgent: client.userAgent.slice(0, 400),
      network: networkOf(client.ip),
      expiresAt: this.tokenExpiry(),
      now: this.deps.clock(),
    });
    return this.issueToken(user, device.id);
  }

  private async findByValidResetToken(token: string): Promise<User> {
    const reset = await passwordResets.findByTokenHash(this.deps.prisma, hashResetToken(token));
    const user = reset?.userId && reset.expiresAt > this.deps.clock() ? await users.findById(this.deps.prisma, reset.userId) : null;
    if (!user) throw new HttpError(400, INVALID_RESET);
    return user;
  }

  /** Applies the changes that differ from the stored user; only a real change emits user.updated.v1. */
  private async change(userId: string, changes: UserChanges, requestId: string, options: { settle?: boolean } = {}): Promise<User> {
    let eventId: string | undefined;
    const user = await this.deps.prisma.$transaction(async (tx) => {
      const current = await users.lockById(tx, userId);
      if (!current) throw notFound('User not found');
      const effective = Object.fromEntries(
        Object.entries(changes).filter(([key, value]) => value !== undefined && current[key as keyof User] !== value),
      ) as UserChanges;
      if (Object.keys(effective).length === 0) return current;
      const updated = await users.update(tx, userId, effective, this.deps.clock());
      eventId = (await this.deps.outbox.enqueue(tx, 'user.updated.v1', toSnapshot(updated), requestId)).id;
      return updated;
    });
    if (eventId) {
      this.deps.onEventsCommitted();
      if (options.settle) await this.deps.settle?.([eventId]);
    }
    return user;
  }

  private async inTransactionWithEvent(
    type: EventType,
    requestId: string,
    write: (tx: Prisma.TransactionClient) => Promise<User>,
    options: { settle?: boolean } = {},
  ): Promise<User> {
    let eventId = '';
    const user = await this.deps.prisma.$transaction(async (tx) => {
      const written = await write(tx);
      eventId = (await this.deps.outbox.enqueue(tx, type, toSnapshot(written), requestId)).id;
      return written;
    });
    this.deps.onEventsCommitted();
    if (options.settle) await this.deps.settle?.([eventId]);
    return user;
  }
}
