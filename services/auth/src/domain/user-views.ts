import { ROLES, type CurrentUser, type Role, type UserSnapshot } from '@hoptrack/proto';
import type { User } from '../db';

/** The signed-in user's own view (GET /api/me). */
export function toCurrentUser(user: User): CurrentUser {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    displayName: user.displayName,
    avatar: user.avatar,
    profilePicture: user.profilePicture,
    bio: user.bio,
    isProfilePrivate: user.isProfilePrivate,
    allowDirectMessages: user.allowDirectMessages,
    showOnlineStatus: user.showOnlineStatus,
    showEmailToFriends: user.showEmailToFriends,
    socialMediaPublic: user.socialMediaPublic,
    isEmailVerified: user.isEmailVerified,
    pendingEmail: user.pendingEmail,
    roles: rolesOf(user),
    createdAt: user.createdAt.toISOString(),
    joinDate: user.createdAt.toISOString(),
  };
}

/** What other services learn about a user through user.* events. */
export function toSnapshot(user: User): UserSnapshot {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    displayName: user.displayName,
    bio: user.bio,
    avatar: user.avatar,
    profilePicture: user.profilePicture,
    isProfilePrivate: user.isProfilePrivate,
    allowDirectMessages: user.allowDirectMessages,
    showOnlineStatus: user.showOnlineStatus,
    showEmailToFriends: user.showEmailToFriends,
    tokenVersion: user.tokenVersion,
    roles: rolesOf(user),
    suspendedUntil: user.suspendedUntil?.toISOString() ?? null,
    banned: user.banned,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
    version: user.version,
  };
}

/** The roles a stored account holds, in the one order ROLES lists them (the column is text[]; anything else in it is no role). */
export function rolesOf(user: Pick<User, 'roles'>): Role[] {
  return ROLES.filter((role) => user.roles.includes(role));
}
