import { fillPath, paramsOf, type CurrentUser, type Role, type StaffMember } from '@hoptrack/proto';
import { STAFF_ONLY } from '@hoptrack/runtime';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, expectApi, registerUser, type RegisteredUser } from '@hoptrack/testing/api';
import { storesOf } from '@hoptrack/testing/erasure-search';
import { startStack, type Stack } from '@hoptrack/testing/stack';
import { makeStaff, staffCommand } from '@hoptrack/testing/staff';
import { apiRoutes, keyOf, type TableRoute } from './contract-table';

/**
 * Issue 42, item 1: the staff roles. Granted and revoked by the operators'
 * command and by an admin in the console; they travel with identity like the
 * token version, so a revoked role stops working at every service when the
 * revoke answers (auth's read-model barrier); every staff route of the
 * contract table refuses everyone without its role, through the gateway.
 */

let stack: Stack;
let admin: RegisteredUser;
let plain: RegisteredUser;
let moderator: RegisteredUser;

/** The routes that need a role, from the contract table: the routes issue 42 adds join the sweep by being declared. */
const staffRoutes = apiRoutes().filter((route) => route.contract.access.level === 'role');
const roleOf = (route: TableRoute): Role => (route.contract.access.level === 'role' ? route.contract.access.role : 'admin');

/** A call that passes validation wherever it can without knowing the route (well-formed ids; an empty object body). */
function callAs(route: TableRoute, token: string) {
  const path = fillPath(route.template, Object.fromEntries(paramsOf(route.template).map((p) => [p, randomUUID()])));
  return callApi(stack.baseUrl, token, route.method, path, route.method === 'GET' ? undefined : BODIES[keyOf(route)] ?? {});
}

/** Valid bodies, so the control (an admin) reaches the handler. */
const BODIES: Record<string, unknown> = { 'PUT /api/moderation/staff/:userId': { roles: [] } };

/** Every service's stored roles of `userId`: the people tables every role check reads (auth's own users table among them). */
async function rolesEverywhere(userId: string): Promise<Record<string, string[] | null>> {
  const found: Record<string, string[] | null> = {};
  for (const url of storesOf(stack).databaseUrls) {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      const rows = (await pool.query<{ roles: string[] }>('SELECT "roles" FROM "users" WHERE "id" = $1', [userId])).rows;
      found[new URL(url).pathname.slice(1)] = rows[0]?.roles ?? null;
    } finally {
      await pool.end();
    }
  }
  return found;
}

beforeAll(async () => {
  stack = await startStack({ serveWeb: false });
  [admin, plain, moderator] = await Promise.all([registerUser(stack.baseUrl, 'staffadmin'), registerUser(stack.baseUrl, 'staffplain'), registerUser(stack.baseUrl, 'staffmod')]);
  // The first admin can only come from an operator: the command, as docs/operations.md gives it.
  await makeStaff(stack, admin, 'admin');
  await makeStaff(stack, moderator, 'moderator');
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe('the staff roles (issue 42)', () => {
  it('refuses every staff route of the contract table to someone without its role, 403 through the gateway; an admin passes (the control)', async () => {
    expect(staffRoutes.length).toBeGreaterThanOrEqual(2);
    const wrong: string[] = [];
    for (const route of staffRoutes) {
      const refused = await callAs(route, plain.token);
      if (refused.status !== 403 || (refused.body as { message?: string }).message !== STAFF_ONLY[roleOf(route)]) wrong.push(`${keyOf(route)} as a plain person -> ${refused.status} ${JSON.stringify(refused.body)}`);
      if (roleOf(route) === 'admin') {
        const moderated = await callAs(route, moderator.token);
        if (moderated.status !== 403) wrong.push(`${keyOf(route)} as a moderator -> ${moderated.status}`);
      }
      const allowed = await callAs(route, admin.token);
      if (allowed.status === 403 || allowed.status === 401 || allowed.status >= 500) wrong.push(`${keyOf(route)} as an admin -> ${allowed.status} ${JSON.stringify(allowed.body)}`);
    }
    console.info(`[figure] staff routes: ${staffRoutes.length} from the contract table, refused to people without the role: ${staffRoutes.length - wrong.length} of ${staffRoutes.length}`);
    expect(wrong).toEqual([]);
  });

  it("shows a person's roles on their own account, and lists the staff to admins", async () => {
    expect(((await expectApi(stack.baseUrl, admin.token, 'GET', '/api/me')) as CurrentUser).roles).toEqual(['admin']);
    expect(((await expectApi(stack.baseUrl, plain.token, 'GET', '/api/me')) as CurrentUser).roles).toEqual([]);
    const staff = (await expectApi(stack.baseUrl, admin.token, 'GET', '/api/moderation/staff')) as StaffMember[];
    // By username ('staffadmin…' before 'staffmod…'); the plain person is not staff.
    expect(staff.filter((member) => [admin.id, moderator.id, plain.id].includes(member.id)).map((m) => [m.username, m.roles])).toEqual([
      [admin.username, ['admin']],
      [moderator.username, ['moderator']],
    ]);
  });

  it('carries a grant and a revoke to every service before it answers: a revoked role is refused at once, with no retry', async () => {
    const promoted = await registerUser(stack.baseUrl, 'staffpromoted');
    const granted = (await expectApi(stack.baseUrl, admin.token, 'PUT', `/api/moderation/staff/${promoted.id}`, { roles: ['admin'] })) as StaffMember;
    expect(granted.roles).toEqual(['admin']);
    // Answered only once every service applied it: each people table holds the role now.
    const afterGrant = await rolesEverywhere(promoted.id);
    expect(Object.keys(afterGrant).length).toBeGreaterThanOrEqual(7);
    expect(Object.entries(afterGrant).filter(([, roles]) => roles?.join() !== 'admin')).toEqual([]);
    expect((await callApi(stack.baseUrl, promoted.token, 'GET', '/api/moderation/staff')).status).toBe(200);

    await expectApi(stack.baseUrl, admin.token, 'PUT', `/api/moderation/staff/${promoted.id}`, { roles: [] });
    // The first call after the answer is refused: no wait, no retry.
    const refused = await callApi(stack.baseUrl, promoted.token, 'GET', '/api/moderation/staff');
    expect([refused.status, (refused.body as { message?: string }).message]).toEqual([403, STAFF_ONLY.admin]);
    expect(Object.entries(await rolesEverywhere(promoted.id)).filter(([, roles]) => (roles ?? []).length > 0)).toEqual([]);
    // The sessions service checks from its Redis cache of people (written before the event's ack): no role there either.
    const { namespace, redisUrls } = storesOf(stack);
    const redis = new Redis(redisUrls[0] as string);
    try {
      expect(await redis.get(`${namespace}:sessions:personv:${promoted.id}`)).not.toMatch(/"roles"/);
    } finally {
      redis.disconnect();
    }
  });

  it('grants and revokes by the operator command, which answers the roles once applied', async () => {
    const person = await registerUser(stack.baseUrl, 'staffcommand');
    expect(await staffCommand(stack, 'grant', 'moderator', person)).toEqual(['moderator']);
    expect(await staffCommand(stack, 'grant', 'admin', person)).toEqual(['moderator', 'admin']);
    expect((await callApi(stack.baseUrl, person.token, 'GET', '/api/moderation/staff')).status).toBe(200);
    expect(await staffCommand(stack, 'revoke', 'admin', person)).toEqual(['moderator']);
    expect((await callApi(stack.baseUrl, person.token, 'GET', '/api/moderation/staff')).status).toBe(403);
    expect(Object.entries(await rolesEverywhere(person.id)).filter(([, roles]) => roles?.join() !== 'moderator')).toEqual([]);
  });

  it("validates a change of roles, and refuses an admin's change of their own (400 with the field, 404, 403)", async () => {
    const bad = await callApi(stack.baseUrl, admin.token, 'PUT', `/api/moderation/staff/${plain.id}`, { roles: ['owner'] });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ field: 'roles.0' });
    const twice = await callApi(stack.baseUrl, admin.token, 'PUT', `/api/moderation/staff/${plain.id}`, { roles: ['moderator', 'moderator'] });
    expect([twice.status, (twice.body as { field?: string }).field]).toEqual([400, 'roles']);
    expect((await callApi(stack.baseUrl, admin.token, 'PUT', `/api/moderation/staff/${randomUUID()}`, { roles: ['moderator'] })).status).toBe(404);
    const own = await callApi(stack.baseUrl, admin.token, 'PUT', `/api/moderation/staff/${admin.id}`, { roles: [] });
    expect(own.status).toBe(403);
    expect(((await expectApi(stack.baseUrl, admin.token, 'GET', '/api/me')) as CurrentUser).roles).toEqual(['admin']);
    // Nobody made anybody anything: the plain person holds no role.
    expect(((await expectApi(stack.baseUrl, plain.token, 'GET', '/api/me')) as CurrentUser).roles).toEqual([]);
  });
});
