import { z } from 'zod';
import { BIO_MAX, DISPLAY_NAME_MAX, PASSWORD_MIN, PRIVACY_KEYS, USERNAME_MAX, USERNAME_MIN } from './constants';
import { uuid } from './common';
import { roleList } from './roles';

/**
 * Auth, current user and privacy contracts (spec sections 3, 5 and 7).
 * Messages are the exact texts the product shows.
 */
export const email = z
  .string({ error: 'Email is required' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'Please enter a valid email address' }).max(254, { error: 'Email is too long' }));

export const password = z
  .string({ error: 'Password is required' })
  .min(PASSWORD_MIN, { error: `Password must be at least ${PASSWORD_MIN} characters long` })
  .max(200, { error: 'Password must be at most 200 characters long' });

export const username = z
  .string({ error: 'Username is required' })
  .trim()
  .min(USERNAME_MIN, { error: `Username must be at least ${USERNAME_MIN} characters` })
  .max(USERNAME_MAX, { error: `Username must be at most ${USERNAME_MAX} characters` })
  .regex(/^[A-Za-z0-9_.-]+$/, { error: 'Username may only contain letters, numbers, dots, dashes and underscores' });

export const displayName = z
  .string({ error: 'Display name is required' })
  .trim()
  .min(1, { error: 'Display name is required' })
  .max(DISPLAY_NAME_MAX, { error: `Display name must be at most ${DISPLAY_NAME_MAX} characters` });

export const bio = z.string().max(BIO_MAX, { error: `Bio must be at most ${BIO_MAX} characters` });

export const registerRequest = z.object({ email, username, displayName, password });
export type RegisterRequest = z.infer<typeof registerRequest>;

export const loginRequest = z.object({
  email,
  password: z.string({ error: 'Password is required' }).min(1, { error: 'Password is required' }).max(200),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const forgotPasswordRequest = z.object({ email });
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequest>;

/** token and resetUrl are present only in development (spec section 7). */
export const forgotPasswordResponse = z.object({
  message: z.string(),
  token: z.string().optional(),
  resetUrl: z.string().optional(),
});
export type ForgotPasswordResponse = z.infer<typeof forgotPasswordResponse>;

export const resetTokenParams = z.object({
  token: z.string().min(1, { error: 'Token is required' }).max(200, { error: 'Token is too long' }),
});
export const verifyResetTokenResponse = z.object({ email: z.string() });
export type VerifyResetTokenResponse = z.infer<typeof verifyResetTokenResponse>;

export const resetPasswordRequest = z.object({
  token: z.string({ error: 'Token is required' }).min(1, { error: 'Token is required' }).max(200),
  newPassword: password,
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;

/** POST /api/auth/verify-email: the token from the verification link. */
export const verifyEmailRequest = z.object({
  token: z.string({ error: 'Token is required' }).min(1, { error: 'Token is required' }).max(200, { error: 'Token is too long' }),
});
export type VerifyEmailRequest = z.infer<typeof verifyEmailRequest>;
/** The verification mail's subject: tests that read a person's mail tell it from the mails of other kinds by it. */
export const VERIFICATION_MAIL_SUBJECT = 'Verify your Hoptrack e-mail address';

/** The signed-in user as /api/me returns it. */
export const currentUser = z.object({
  id: uuid,
  email: z.string(),
  username: z.string(),
  displayName: z.string(),
  avatar: z.string().nullable(),
  profilePicture: z.string().nullable(),
  bio: z.string().nullable(),
  isProfilePrivate: z.boolean(),
  allowDirectMessages: z.boolean(),
  showOnlineStatus: z.boolean(),
  /** Whether friends see the e-mail address (issue 40: off by default; nobody else ever sees it). */
  showEmailToFriends: z.boolean(),
  socialMediaPublic: z.boolean(),
  isEmailVerified: z.boolean(),
  /** A new address waiting for its verification link (PUT /api/me/email); the e-mail above stays until then. */
  pendingEmail: z.string().nullable(),
  /** The staff roles held (issue 42): what shows the moderation console; every service checks them on its own. */
  roles: roleList,
  createdAt: z.string(),
  joinDate: z.string(),
});
export type CurrentUser = z.infer<typeof currentUser>;

export const authResponse = z.object({
  token: z.string(),
  message: z.string(),
  user: currentUser,
});
export type AuthResponse = z.infer<typeof authResponse>;

/** PUT /api/privacy: one or more of the four switches. */
export const privacyUpdateRequest = z
  .object({
    isProfilePrivate: z.boolean({ error: 'isProfilePrivate must be true or false' }).optional(),
    allowDirectMessages: z.boolean({ error: 'allowDirectMessages must be true or false' }).optional(),
    showOnlineStatus: z.boolean({ error: 'showOnlineStatus must be true or false' }).optional(),
    showEmailToFriends: z.boolean({ error: 'showEmailToFriends must be true or false' }).optional(),
  })
  .refine((body) => PRIVACY_KEYS.some((key) => body[key] !== undefined), {
    error: 'Provide at least one of isProfilePrivate, allowDirectMessages, showOnlineStatus, showEmailToFriends',
    path: ['isProfilePrivate'],
  });
export type PrivacyUpdateRequest = z.infer<typeof privacyUpdateRequest>;

/**
 * A profile picture the media service stored, named either by the URL the
 * upload answered (`/api/media/files/avatars/...`) or by the upload URL it
 * was given (`/api/media/uploads/<token>`, as the spec's client sends it;
 * the auth service checks the token's signature and owner and keeps the
 * stored URL). Only our own paths, so a profile cannot show a tracking pixel
 * or content we do not host.
 */
export const imageUrl = z
  .string({ error: 'profilePictureUrl is required' })
  .max(300, { error: 'URL is too long' })
  .regex(/^(?:\/api\/media\/files\/avatars\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.webp|\/api\/media\/uploads\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/, {
    error: 'Must be a picture uploaded through /api/profile-picture/upload',
  });

export const profilePictureUpdateRequest = z.object({ profilePictureUrl: imageUrl });
export type ProfilePictureUpdateRequest = z.infer<typeof profilePictureUpdateRequest>;

/** PATCH /api/me: the profile update schema of spec section 5. */
export const profileUpdateRequest = z
  .object({ displayName: displayName.optional(), bio: bio.optional() })
  .refine((body) => body.displayName !== undefined || body.bio !== undefined, {
    error: 'Provide displayName or bio',
    path: ['displayName'],
  });
export type ProfileUpdateRequest = z.infer<typeof profileUpdateRequest>;

/** The current password, asked again before anything that changes who may sign in. */
const currentPassword = z.string({ error: 'Current password is required' }).min(1, { error: 'Current password is required' }).max(200);

/** PUT /api/me/password: answers a new token for this device; every other device's token dies (token version). */
export const changePasswordRequest = z.object({ currentPassword, newPassword: password });
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;

/** PUT /api/me/email: the new address takes effect when its verification link is opened; the old one is told. */
export const changeEmailRequest = z.object({ currentPassword, newEmail: email });
export type ChangeEmailRequest = z.infer<typeof changeEmailRequest>;
export const emailChangeResponse = z.object({ message: z.string(), user: currentUser });
export type EmailChangeResponse = z.infer<typeof emailChangeResponse>;

/** DELETE /api/me: the password, and the typed confirmation the screen asks for. */
export const DELETE_CONFIRMATION = 'DELETE';
export const deleteAccountRequest = z.object({
  password: currentPassword,
  confirm: z.literal(DELETE_CONFIRMATION, { error: `Type ${DELETE_CONFIRMATION} to confirm` }),
});
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequest>;

/** The mail that tells the old address of a change of e-mail (tests tell it from the others by its subject). */
export const EMAIL_CHANGE_NOTICE_SUBJECT = 'Your Hoptrack e-mail address is being changed';
/**
 * Where the person is signed in (GET /api/me/devices, issue 40): one entry a
 * sign-in, newest use first. `device` is read from the browser's User-Agent
 * ("Chrome on Linux"), `place` is the network it signed in from (no geo
 * database: docs/decisions.md), `current` marks the device asking.
 */
export const device = z.object({
  id: uuid,
  device: z.string(),
  place: z.string(),
  signedInAt: z.string(),
  lastUsedAt: z.string(),
  current: z.boolean(),
});
export type Device = z.infer<typeof device>;
export const deviceList = z.array(device);
export const deviceParams = z.object({ id: uuid });

/**
 * Why auth refused a token that was once good (issue 40, item 15): the
 * 401's message, which the app shows on its sign-in screen.
 */
export const PASSWORD_CHANGED_SIGN_IN_AGAIN = 'Your password was changed. Sign in again.';
export const SIGNED_OUT_ON_ANOTHER_DEVICE = 'You were signed out on another device. Sign in again.';

/** The mail after a password change or reset, with how to take the account back (tests tell it from the others by its subject). */
export const PASSWORD_CHANGED_SUBJECT = 'Your Hoptrack password was changed';
/** The link of an e-mail change, sent to the new address: not the welcome of a registration (issue 39). */
export const EMAIL_CHANGE_VERIFICATION_SUBJECT = 'Confirm the new e-mail address of a Hoptrack account';

/** A data export (POST /api/me/export, GET /api/me/exports): ready exports download as one zip until they expire. */
export const EXPORT_STATUSES = ['pending', 'ready', 'expired'] as const;
export const dataExport = z.object({
  id: uuid,
  status: z.enum(EXPORT_STATUSES),
  requestedAt: z.string(),
  readyAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** Bytes of the zip, once ready. */
  size: z.number().int().nullable(),
});
export type DataExport = z.infer<typeof dataExport>;
export const dataExportList = z.array(dataExport);
export const exportParams = z.object({ id: uuid });
/** The mail that says an export is ready (tests tell it from the others by its subject). */
export const EXPORT_READY_SUBJECT = 'Your Hoptrack data is ready to download';
/**
 * A new export may be asked for this long after the last one was (issue 39,
 * finding 9): each is a copy of every original photo and a mail. The web
 * app shows when the next may be asked for from the same figure.
 */
export const EXPORT_COOLDOWN_MS = 24 * 60 * 60 * 1000;
/** How long media keeps a ready zip unless told otherwise (EXPORT_TTL_HOURS of media); a newer export's zip replaces it sooner. */
export const EXPORT_DEFAULT_TTL_MS = 48 * 60 * 60 * 1000;
export const EXPORT_MESSAGES = {
  cooldown: 'You can request a copy of your data once a day. Your latest copy is listed below.',
} as const;

/**
 * One service's part of an export, as the exports object store holds it:
 * `data` becomes `<service>.json` in the zip; `files` are S3 keys of the
 * person's own files (originals) that media copies in under `path`.
 */
export const exportPart = z.object({
  service: z.string(),
  data: z.unknown(),
  files: z.array(z.object({ path: z.string(), key: z.string() })).default([]),
});
export type ExportPart = z.infer<typeof exportPart>;

/**
 * The token keys auth publishes (GET /.well-known/jwks.json): the public
 * halves only. The reply goes through this schema, so a private part (`d`)
 * could never be published by mistake.
 */
export const jsonWebKeySet = z.object({
  keys: z.array(
    z.object({
      kty: z.string().optional(),
      crv: z.string().optional(),
      x: z.string().optional(),
      kid: z.string().optional(),
      alg: z.string().optional(),
      use: z.string().optional(),
    }),
  ),
});
