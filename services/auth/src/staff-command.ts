import { ROLES, type Role } from '@hoptrack/proto';
import { runAuthCommand } from './command';
import { usersRepository as users } from './repositories/users.repository';
import { rolesOf } from './domain/user-views';

/**
 * The operators' command for the staff roles (issue 42; docs/operations.md):
 *
 *   node services/auth/dist/staff-command.js grant moderator someone@example.com
 *   node services/auth/dist/staff-command.js revoke admin someone@example.com
 *   node services/auth/dist/staff-command.js list
 *
 * (`npm run staff -w @hoptrack/auth -- …` from a checkout). A change goes
 * through the same domain code as the console's (StaffRoles): the account's
 * snapshot on user.updated.v1, and the command returns once every service
 * applied it (the read-model barrier), so a revoked role no longer works
 * anywhere when it prints. Prints the person's roles as JSON.
 */
const USAGE = `usage: staff-command grant|revoke <${ROLES.join('|')}> <email>  |  staff-command list`;

const [verb, roleArg, email] = process.argv.slice(2);
const isRole = (value: string | undefined): value is Role => (ROLES as readonly string[]).includes(value ?? '');
if (!(verb === 'list' || ((verb === 'grant' || verb === 'revoke') && isRole(roleArg) && email))) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}

const exitCode = await runAuthCommand('auth-staff-command', async ({ app: { staffRoles }, connections, logger }) => {
  if (verb === 'list') {
    for (const user of await staffRoles.staff()) process.stdout.write(`${JSON.stringify({ email: user.email, username: user.username, roles: rolesOf(user) })}\n`);
    return 0;
  }
  const user = await users.findByEmail(connections.prisma, email ?? '');
  if (!user) {
    process.stderr.write(`no account with the e-mail address ${email}\n`);
    return 1;
  }
  const role = roleArg as Role;
  const changed = verb === 'grant' ? await staffRoles.grant(user, role, 'staff-command') : await staffRoles.revoke(user, role, 'staff-command');
  logger.info({ userId: user.id, verb, role }, 'staff roles changed');
  process.stdout.write(`${JSON.stringify({ email: changed.email, username: changed.username, roles: rolesOf(changed) })}\n`);
  return 0;
});
process.exit(exitCode);
