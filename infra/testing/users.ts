import type { UserSnapshot } from '@hoptrack/proto';

/**
 * A user as auth announces them, for tests that publish `user.*` events: a
 * public profile accepting direct messages unless `overrides` say otherwise.
 */
export function testUserSnapshot(id: string, overrides: Partial<Omit<UserSnapshot, 'id' | 'updatedAt'>> & { updatedAt?: Date } = {}): UserSnapshot {
  const { updatedAt, ...fields } = overrides;
  const at = (updatedAt ?? new Date()).toISOString();
  return {
    id,
    email: `${id}@example.test`,
    username: `u${id.slice(0, 8)}`,
    displayName: `User ${id.slice(0, 4)}`,
    bio: null,
    avatar: null,
    profilePicture: null,
    isProfilePrivate: false,
    allowDirectMessages: true,
    showOnlineStatus: true,
    tokenVersion: 0,
    createdAt: at,
    ...fields,
    updatedAt: at,
  };
}
