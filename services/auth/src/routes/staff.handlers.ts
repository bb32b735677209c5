import type { authApi, StaffMember } from '@hoptrack/proto';
import type { Handlers } from '@hoptrack/runtime';
import type { User } from '../db';
import type { StaffRoles } from '../domain/staff-roles';
import { rolesOf } from '../domain/user-views';

type StaffHandlers = Pick<Handlers<typeof authApi>, 'staff' | 'setStaffRoles'>;

const toStaffMember = (user: User): StaffMember => ({ id: user.id, username: user.username, displayName: user.displayName, roles: rolesOf(user) });

/** /api/moderation/staff: who holds a role, and an admin's change of it (issue 42); the contracts say admins only. */
export function staffHandlers(roles: StaffRoles): StaffHandlers {
  return {
    staff: async () => (await roles.staff()).map(toStaffMember),
    setStaffRoles: async (request) => toStaffMember(await roles.set(request.params.userId, request.body.roles, request.id, request.auth.userId)),
  };
}
