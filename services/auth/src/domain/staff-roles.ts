import { ROLES, type Role } from '@hoptrack/proto';
import { forbidden } from '@hoptrack/runtime';
import type { User } from '../db';
import { usersRepository as users } from '../repositories/users.repository';
import { changeAccount, type AccountChangeDeps } from './account-change';
import { rolesOf } from './user-views';

export const CANNOT_CHANGE_OWN_ROLES = 'You cannot change your own roles';

/**
 * The staff roles (issue 42): moderator and admin. A change is a change of
 * the account like any other — its version incremented, its snapshot on
 * user.updated.v1 — and it answers only once every service applied it
 * (auth's read-model barrier, as a password reset): from then on each
 * service's role check, which reads its people table or cache on every
 * request, sees the new roles. So a revoked role stops working everywhere
 * when the revoke answers, within the barrier's wait.
 */
export class StaffRoles {
  constructor(private readonly deps: AccountChangeDeps) {}

  /**
   * Sets `userId`'s roles. `by` is the admin asking (the console), or null
   * for the operator command; an admin may not change their own (the last
   * admin cannot lock the console out, and nobody promotes themselves).
   */
  async set(userId: string, wanted: readonly Role[], requestId: string, by: string | null): Promise<User> {
    if (by !== null && by === userId) throw forbidden(CANNOT_CHANGE_OWN_ROLES);
    const roles = ROLES.filter((role) => wanted.includes(role));
    return changeAccount(this.deps, userId, requestId, async (tx, current) => {
      // Unchanged roles publish nothing (the seed sets them at every start).
      if (rolesOf(current).join() === roles.join()) return { updated: null, result: current };
      const updated = await users.setRoles(tx, userId, roles, this.deps.clock());
      return { updated, result: updated };
    });
  }

  /** Grants one role (the operator command's `grant`). */
  async grant(user: User, role: Role, requestId: string): Promise<User> {
    return this.set(user.id, [...rolesOf(user), role], requestId, null);
  }

  /** Revokes one role (the operator command's `revoke`). */
  async revoke(user: User, role: Role, requestId: string): Promise<User> {
    return this.set(
      user.id,
      rolesOf(user).filter((held) => held !== role),
      requestId,
      null,
    );
  }

  /** Everyone holding a role. */
  staff(): Promise<User[]> {
    return users.staff(this.deps.prisma);
  }
}
