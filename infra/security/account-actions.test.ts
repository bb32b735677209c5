import { ACCOUNT_BANNED, suspendedUntil, type ModerationAction } from '@hoptrack/proto';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, expectApi, registerUser, type RegisteredUser } from '@hoptrack/testing/api';
import { CONDITION_BOUND_MS } from '@hoptrack/testing/bounds';
import { openLive } from '@hoptrack/testing/live';
import { startStack, type Stack } from '@hoptrack/testing/stack';
import { makeStaff } from '@hoptrack/testing/staff';
import { apiRoutes, keyOf } from './contract-table';

/**
 * Issue 42, item 4: a moderator's actions on an account. A suspended or
 * banned person's tokens are refused at every service from the moment the
 * action answers (auth's barrier, as a password reset), their live stream
 * closes, sign-in says until when (or that they are banned), and an unban
 * gives the same tokens their access back. A warning changes nothing but is
 * the person's to read.
 */

let stack: Stack;
let moderator: RegisteredUser;
let admin: RegisteredUser;

/** Every signed-in GET of the contract table without a path parameter or a stream, by service: a token refused at all of them is refused by every service. */
const sweepRoutes = apiRoutes().filter((r) => r.contract.access.level === 'signed-in' && r.method === 'GET' && !r.template.includes(':') && !r.contract.stream);

async function sweep(token: string): Promise<Array<{ route: string; service: string; status: number }>> {
  return Promise.all(
    sweepRoutes.map(async (route) => ({ route: keyOf(route), service: route.contract.service, status: (await callApi(stack.baseUrl, token, 'GET', route.template)).status })),
  );
}

const login = (user: RegisteredUser) =>
  fetch(`${stack.baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: user.email, password: user.password }) });

const act = (actor: RegisteredUser, body: Record<string, unknown>) => callApi(stack.baseUrl, actor.token, 'POST', '/api/moderation/actions', body);

beforeAll(async () => {
  stack = await startStack({ serveWeb: false, env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
  [moderator, admin] = await Promise.all([registerUser(stack.baseUrl, 'actmod'), registerUser(stack.baseUrl, 'actadmin')]);
  await makeStaff(stack, moderator, 'moderator');
  await makeStaff(stack, admin, 'admin');
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe("a moderator's actions on an account (issue 42)", () => {
  it('suspends: refused at every service at once, the live stream closed, sign-in told until when; an unban gives the same token its access back', async () => {
    const person = await registerUser(stack.baseUrl, 'actsuspended');
    const services = new Set(sweepRoutes.map((r) => r.contract.service));
    expect(services.size).toBeGreaterThanOrEqual(7);
    // The control: before, no route refuses the token.
    expect((await sweep(person.token)).filter((a) => a.status === 401)).toEqual([]);
    const live = await openLive(stack.baseUrl, person.token);
    expect(live.status).toBe(200);

    const suspended = await act(moderator, { targetType: 'person', targetId: person.id, action: 'suspend', reason: 'Spam in three comments', days: 3 });
    expect(suspended.status, JSON.stringify(suspended.body)).toBe(201);
    const action = suspended.body as ModerationAction;
    expect(action).toMatchObject({ targetType: 'person', targetId: person.id, action: 'suspend', days: 3, reason: 'Spam in three comments' });
    const endsAt = new Date(action.endsAt ?? 0).getTime();
    expect(Math.abs(endsAt - (Date.now() + 3 * 86_400_000))).toBeLessThan(60_000);

    // Called once each, at once after the answer: every service refuses.
    expect((await sweep(person.token)).filter((a) => a.status !== 401)).toEqual([]);
    await Promise.race([live.ended, new Promise((_, reject) => setTimeout(() => reject(new Error('the live stream stayed open')), CONDITION_BOUND_MS))]);
    const reconnect = await openLive(stack.baseUrl, person.token);
    expect(reconnect.status).toBe(401);

    const signIn = await login(person);
    expect(signIn.status).toBe(403);
    expect(((await signIn.json()) as { message: string }).message).toBe(suspendedUntil(action.endsAt ?? ''));

    const lifted = await act(moderator, { targetType: 'person', targetId: person.id, action: 'unban', reason: 'Appeal upheld: not spam' });
    expect(lifted.status).toBe(201);
    expect((await sweep(person.token)).filter((a) => a.status === 401)).toEqual([]);
    expect((await login(person)).status).toBe(200);
    const notices = (await expectApi(stack.baseUrl, person.token, 'GET', '/api/me/actions')) as ModerationAction[];
    expect(notices.map((n) => [n.action, n.reason])).toEqual([
      ['unban', 'Appeal upheld: not spam'],
      ['suspend', 'Spam in three comments'],
    ]);
  });

  it('bans until an unban: sign-in says so; a warning only leaves a notice', async () => {
    const person = await registerUser(stack.baseUrl, 'actbanned');
    expect((await act(moderator, { targetType: 'person', targetId: person.id, action: 'warn', reason: 'Keep it friendly' })).status).toBe(201);
    expect((await callApi(stack.baseUrl, person.token, 'GET', '/api/me')).status).toBe(200);
    expect(((await expectApi(stack.baseUrl, person.token, 'GET', '/api/me/actions')) as ModerationAction[]).map((n) => n.action)).toEqual(['warn']);

    expect((await act(moderator, { targetType: 'person', targetId: person.id, action: 'ban', reason: 'Harassment after a warning' })).status).toBe(201);
    expect((await callApi(stack.baseUrl, person.token, 'GET', '/api/sessions')).status).toBe(401);
    const signIn = await login(person);
    expect([signIn.status, ((await signIn.json()) as { message: string }).message]).toEqual([403, ACCOUNT_BANNED]);
    // A wrong password learns nothing of the ban.
    const guess = await fetch(`${stack.baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: person.email, password: 'not-the-password' }) });
    expect(guess.status).toBe(401);
  });

  it('refuses what a moderator may not do: their own account, a staff account (admins only), a suspension without days, an unknown person, an unban of nobody restricted', async () => {
    const person = await registerUser(stack.baseUrl, 'actrules');
    const reason = 'a reason';
    expect((await act(moderator, { targetType: 'person', targetId: moderator.id, action: 'warn', reason })).status).toBe(403);
    expect((await act(moderator, { targetType: 'person', targetId: admin.id, action: 'suspend', reason, days: 1 })).status).toBe(403);
    const noDays = await act(moderator, { targetType: 'person', targetId: person.id, action: 'suspend', reason });
    expect([noDays.status, (noDays.body as { field?: string }).field]).toEqual([400, 'days']);
    const noReason = await act(moderator, { targetType: 'person', targetId: person.id, action: 'warn', reason: '  ' });
    expect([noReason.status, (noReason.body as { field?: string }).field]).toEqual([400, 'reason']);
    expect((await act(moderator, { targetType: 'person', targetId: randomUUID(), action: 'warn', reason })).status).toBe(404);
    expect((await act(moderator, { targetType: 'person', targetId: person.id, action: 'unban', reason })).status).toBe(409);
    // An admin may act on a moderator.
    const staffWarned = await act(admin, { targetType: 'person', targetId: moderator.id, action: 'warn', reason: 'Close reports with a reason' });
    expect(staffWarned.status).toBe(201);
    // Nothing of these reached the person.
    expect((await expectApi(stack.baseUrl, person.token, 'GET', '/api/me/actions')) as ModerationAction[]).toEqual([]);
  });
});
