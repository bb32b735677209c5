import type { Role } from '@hoptrack/proto';
import { runAuthCommand } from './command';
import { usersRepository as users } from './repositories/users.repository';

/**
 * Demo accounts for `make dev`. Goes through the same domain code as the API,
 * so the other services hear about the users through user.registered.v1.
 * Idempotent: existing accounts are left alone.
 */
export const DEMO_PASSWORD = 'hoptrack';
export const DEMO_USERS: ReadonlyArray<{ email: string; username: string; displayName: string; bio: string; roles?: Role[] }> = [
  { email: 'alice@hoptrack.dev', username: 'alice', displayName: 'Alice Amber', bio: 'Hazy IPAs and long summer sessions.' },
  { email: 'bob@hoptrack.dev', username: 'bob', displayName: 'Bob Barleywine', bio: 'Barrel-aged everything.' },
  { email: 'carol@hoptrack.dev', username: 'carol', displayName: 'Carol Cask', bio: 'Real ale, real pubs.' },
  // The staff of the demo (issue 42): a moderator for the report queue, an admin for roles and the audit.
  { email: 'moderator@hoptrack.dev', username: 'moderator', displayName: 'Mo Derator', bio: 'Keeping the taproom friendly.', roles: ['moderator'] },
  { email: 'admin@hoptrack.dev', username: 'admin', displayName: 'Ada Admin', bio: 'Runs this Hoptrack.', roles: ['admin'] },
];

await runAuthCommand('auth-seed', async ({ app: { accounts, staffRoles }, connections, logger }) => {
  for (const demo of DEMO_USERS) {
    const existing = await users.findByEmail(connections.prisma, demo.email);
    // Issue 40, item 9: the demo addresses count as verified, so alice does not greet newcomers with the banner
    // (also for demo accounts seeded before); the verification mail register queued goes to the local catcher, its link dead.
    if (existing) {
      if (!existing.isEmailVerified) await users.markEmailVerified(connections.prisma, existing.id, null, new Date());
      // The demo staff's roles, also for accounts seeded before roles existed (unchanged roles publish nothing).
      if (demo.roles) await staffRoles.set(existing.id, demo.roles, 'seed', null);
      continue;
    }
    const { user } = await accounts.register({ ...demo, password: DEMO_PASSWORD }, 'seed', null);
    // Verified before the bio: an unverified account may not put links in its bio (none here, but the order is the product's).
    await users.markEmailVerified(connections.prisma, user.id, null, new Date());
    await accounts.updateProfile(user.id, { bio: demo.bio }, 'seed');
    if (demo.roles) await staffRoles.set(user.id, demo.roles, 'seed', null);
    logger.info({ username: demo.username }, 'demo user created');
  }
});
