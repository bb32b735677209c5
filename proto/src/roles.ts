import { z } from 'zod';

/**
 * The staff roles (issue 42). A role is part of a person's identity, owned by
 * auth and carried to every service in the user.* snapshots beside the token
 * version, so a revoked role stops working everywhere when the revoke
 * answers (auth's read-model barrier), as a password reset does.
 *
 * - `moderator`: reads the report queue and acts on reports.
 * - `admin`: everything a moderator may, and grants roles and reads the audit.
 */
export const ROLES = ['moderator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const role = z.enum(ROLES, { error: `role must be one of ${ROLES.join(', ')}` });
/** A person's roles, as answered. */
export const roleList = z.array(role);

/** The roles that include `wanted`: an admin may do what a moderator may. */
const INCLUDED_BY: Record<Role, readonly Role[]> = { moderator: ['moderator', 'admin'], admin: ['admin'] };

export function hasRole(roles: readonly string[] | null | undefined, wanted: Role): boolean {
  return (roles ?? []).some((held) => (INCLUDED_BY[wanted] as readonly string[]).includes(held));
}
