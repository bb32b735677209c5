import type { AuthResponse, Device, ForgotPasswordResponse } from '@hoptrack/proto';
import { randomBytes, randomUUID } from 'node:crypto';
import { API_SECURITY_HEADERS, createTokenService, DEV_SIGNING_KEY } from '@hoptrack/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@hoptrack/testing';
import { callApi, registerUser, type RegisteredUser } from '@hoptrack/testing/api';
import { CONDITION_BOUND_MS } from '@hoptrack/testing/bounds';
import { startStack, type Stack } from '@hoptrack/testing/stack';
import { fillPath, paramsOf } from '@hoptrack/proto';
import { apiRoutes as contractRoutes, crossCheck, keyOf, openRoutes, type TableRoute } from './contract-table';
import { holdPeopleConsumer, serviceKnows } from './visibility/hold';

/**
 * Issue 19: a token from before a password reset gets 401 at every
 * authenticated route of every service, through the gateway.
 *
 * Every /api route is read from the contract table (issue 37: the services
 * mount their routes from it and refuse to start with any other, and each
 * running service's registered routes are held against it below), its path
 * parameters filled with well-formed values (nothing needs to exist), and
 * called through the real gateway:
 *
 * 1. without a token: a contract that is signed-in (the default) must answer
 *    401; one whose contract opens it (public or signed link, with the
 *    reason) must not; every answer must carry the API's security headers;
 * 2. with A's token from before the reset: every authenticated route must
 *    answer 401, each called once, all at once, as soon as the reset
 *    answered — no retry (issue 38, item 4): the reset answers only once every
 *    service's read model has the new token version (the USERS barrier), so a
 *    service that refuses later is a failure, not a slow pass;
 * 3. with A's token from after the reset (the control that shows the calls
 *    reach past authentication, so a 401 in 2 means something): no 401.
 *
 * Identity is checked before validation (runtime mountRoutes), so no valid
 * input is needed to be refused; INPUTS holds a valid request for the routes
 * that validate one, so that the control in 3 reaches the handler. The figure 'revocation: N authenticated routes, M refused the
 * pre-reset token' is printed.
 */

// ---------------------------------------------------------------- the scan

/** The routes the gateway exposes: every contract but the internal ones. */
const apiRoutes = contractRoutes();
const registered = new Set(apiRoutes.map(keyOf));

/** Routes that answer without a bearer token on purpose, with the reason their contract gives. */
const PUBLIC: Record<string, string> = Object.fromEntries(openRoutes());

/**
 * The open routes as this test knew them before the contracts said so: a
 * contract that opens a route not listed here fails the test, so opening one
 * stays a reviewed change and not an edit of one word in proto.
 */
const REVIEWED_OPEN: Record<string, string> = {
  'POST /api/auth/register': 'signing up: the caller has no account, hence no token, yet',
  'POST /api/auth/login': 'signing in: how a token is obtained in the first place',
  'POST /api/auth/forgot-password': 'asking for a reset link: the caller has lost the password; same answer for any e-mail (auth-abuse.test.ts)',
  'GET /api/auth/verify-reset-token/:token': 'the reset page checks its link: the single-use reset token in the path is the credential',
  'POST /api/auth/reset-password': 'setting the new password, signed out: the single-use reset token in the body is the credential',
  'POST /api/auth/verify-email': "the verification mail's link, opened wherever the mail is read (signed in or not): the single-use token in the body is the credential, and all it can do is mark that address verified",
  'GET /api/media/files/*':
    'stored files for <img> tags: profile pictures are public, album images need a signed URL (exp/v/sig query string, checked against the read models), a capability rather than the bearer token',
  'PUT /api/media/uploads/:token':
    'the signed upload URL (HMAC, one user, 10 minutes) is the credential for the profile-picture bytes; issuing it (POST /api/profile-picture/upload) takes the bearer token',
  'POST /api/notifications/unsubscribe':
    "a notification mail's unsubscribe link, opened wherever the mail is read: the HMAC-signed token in the body is the credential, and all it can do is turn that person's notification e-mail off",
};

/** Valid query strings and bodies, for routes that validate them before authenticating (else 400 for any token). */
const INPUTS: Record<string, { query?: Record<string, string>; json?: unknown }> = {
  'GET /api/bars/search': { query: { q: 'ale' } },
  'GET /api/bars/nearby': { query: { lat: '52.37', lng: '4.89', radius: '1000' } },
  'GET /api/beers/search': { query: { q: 'ale' } },
  'GET /api/google-places/nearby': { query: { lat: '52.37', lng: '4.89', radius: '1000' } },
  'GET /api/google-places/textsearch': { query: { query: 'ale' } },
  'GET /api/google-places/details': { query: { place_id: `revocation-${randomUUID()}` } },
  'GET /api/google-places/photo': { query: { photoreference: `revocation-${randomUUID()}` } },
  'GET /api/users/search': { query: { q: 'revocation' } },
  'PATCH /api/me': { json: { bio: 'revocation test' } },
  // A wrong current password: past authentication the answer is 400 and nothing changes (the account must outlive the scan).
  'PUT /api/me/password': { json: { currentPassword: 'not-the-password', newPassword: 'revocation-secret' } },
  'PUT /api/me/email': { json: { currentPassword: 'not-the-password', newEmail: 'revocation@example.com' } },
  'DELETE /api/me': { json: { password: 'not-the-password', confirm: 'DELETE' } },
  'PUT /api/me/profile-picture': { json: { profilePictureUrl: `/api/media/files/avatars/${randomUUID()}/${randomUUID()}.webp` } },
  'PUT /api/privacy': { json: { showOnlineStatus: true } },
  'POST /api/albums': { json: { name: 'Revocation test' } },
  'POST /api/conversations': { json: { participantId: randomUUID() } },
  'POST /api/conversations/:id/messages': { json: { content: 'revocation test' } },
  'POST /api/messages': { json: { toUserId: randomUUID(), content: 'revocation test' } },
  'GET /api/presence': { query: { ids: randomUUID() } },
  'POST /api/bars/:id/reviews': { json: { rating: 3, reviewText: 'revocation test' } },
  'POST /api/bars/:id/reviews/:reviewId/helpful': { json: { isHelpful: true } },
  'POST /api/sessions/:id/comments': { json: { content: 'revocation test' } },
  'PATCH /api/sessions/:id/comments/:commentId': { json: { content: 'revocation test' } },
  'POST /api/sessions/:id/react': { json: { emoji: '🍺' } },
  'DELETE /api/sessions/:id/react': { json: { emoji: '🍺' } },
  'POST /api/friendships': { json: { friendId: randomUUID() } },
  'PATCH /api/friendships/:id': { json: { action: 'accept' } },
  'POST /api/notifications/read': { json: { all: true } },
  'PUT /api/notifications/settings': { json: { kinds: { 'session.liked': { inApp: true, email: false } } } },
  'POST /api/challenges/:id/invitations': { json: { friendId: randomUUID() } },
  'PATCH /api/challenge-invitations/:id': { json: { action: 'accept' } },
};

/** Well-formed values for a path parameter: the object need not exist, the request only has to pass validation. */
function valueFor(param: string): string {
  if (param === '*') return `thumbs/${randomUUID()}/${randomUUID()}.webp`;
  if (param === 'token') return randomBytes(32).toString('hex');
  if (param === 'username') return `nobody_${randomBytes(6).toString('hex')}`;
  return randomUUID();
}

/** One URL per route, the same for every call of the test. */
const urlOf = new Map(
  apiRoutes.map((r) => {
    const path = fillPath(r.template, Object.fromEntries(paramsOf(r.template).map((p) => [p, valueFor(p)])));
    const query = INPUTS[keyOf(r)]?.query;
    return [keyOf(r), query ? `${path}?${new URLSearchParams(query).toString()}` : path] as const;
  }),
);

// ---------------------------------------------------------------- calls

interface Sweep {
  failures: string[];
  /** The services behind the routes that did not refuse. */
  accepting: Set<string>;
  sentAfterMs: number;
  lastAnswerMs: number;
}

interface Answer {
  status: number;
  text: string;
  /** Security headers the answer lacks or gets wrong (issue 19, item 5). */
  missingHeaders?: string[];
}

const headersMissing = (headers: Headers) =>
  Object.entries(API_SECURITY_HEADERS)
    .filter(([name, value]) => headers.get(name) !== value)
    .map(([name]) => name);

/**
 * One call through the gateway, with `token` or none. An event stream (the
 * live route never ends for a valid token) is closed once its headers are in:
 * only the status matters. A failed fetch is an answer with status 0.
 */
async function call(baseUrl: string, route: TableRoute, token: string | undefined): Promise<Answer> {
  const key = keyOf(route);
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  let body: string | undefined;
  const input = INPUTS[key];
  if (input?.json !== undefined) body = JSON.stringify(input.json);
  else if (route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH') body = '{}';
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const stop = new AbortController();
  try {
    const res = await fetch(`${baseUrl}${urlOf.get(key)}`, {
      method: route.method,
      headers,
      body,
      signal: AbortSignal.any([stop.signal, AbortSignal.timeout(CONDITION_BOUND_MS)]),
    });
    if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
      stop.abort();
      return { status: res.status, text: '(event stream, closed after its headers)', missingHeaders: headersMissing(res.headers) };
    }
    return { status: res.status, text: (await res.text()).slice(0, 200), missingHeaders: headersMissing(res.headers) };
  } catch (err) {
    return { status: 0, text: `fetch failed: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** The claims part of a JWT, unverified (to show the reset bumped the token version). */
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sub: string; tv: number };

// ---------------------------------------------------------------- the test

describe('revocation: a token from before a password reset is refused at every authenticated route, through the gateway', () => {
  let stack: Stack;
  let a: RegisteredUser;
  /** A's token from before the reset, and from the login after it. */
  let old: string;
  let fresh: string;
  let preReset: Sweep;

  /**
   * Every authenticated route called once with `token`, all at once, as soon
   * as the answer that revoked it came (issue 38, item 4): no retry, so a
   * service that refuses only later fails. Times are from the answer.
   */
  async function sweepOnce(baseUrl: string, token: string, answeredAt: number): Promise<Sweep> {
    const sentAfterMs = Math.round(performance.now() - answeredAt);
    let lastAnswerMs = 0;
    const failures: string[] = [];
    const accepting = new Set<string>();
    await Promise.all(
      authenticated.map(async (route) => {
        const answer = await call(baseUrl, route, token);
        lastAnswerMs = Math.max(lastAnswerMs, Math.round(performance.now() - answeredAt));
        if (answer.status !== 401) {
          failures.push(`${keyOf(route)} -> ${answer.status}: ${answer.text}`);
          accepting.add(route.contract.service);
        }
      }),
    );
    return { failures, accepting, sentAfterMs, lastAnswerMs };
  }
  /** Routes that answered 401 without a token. */
  const authenticated: TableRoute[] = [];

  beforeAll(async () => {
    // A few hundred calls from one address: above the gateway's 600 a minute on a slow machine.
    stack = await startStack({ serveWeb: false, env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('reads the routes from the contract table, and opens only the reviewed ones', () => {
    // A broken import finds nothing or misses the well-known ones.
    expect(apiRoutes.length).toBeGreaterThan(90);
    for (const known of ['GET /api/me', 'GET /api/sessions', 'POST /api/albums', 'GET /api/bars', 'GET /api/friends', 'GET /api/conversations', 'GET /api/messages/events']) {
      expect(registered, known).toContain(known);
    }
    expect(Object.keys(PUBLIC).filter((k) => !REVIEWED_OPEN[k]), 'contracts open to callers without a token that no review listed (REVIEWED_OPEN)').toEqual([]);
    // Stale tables: entries for routes that no longer exist are a sign of a renamed route.
    expect(Object.keys(REVIEWED_OPEN).filter((k) => !PUBLIC[k]), 'REVIEWED_OPEN entries no contract opens').toEqual([]);
    expect(Object.keys(INPUTS).filter((k) => !registered.has(k)), 'INPUTS entries with no such route').toEqual([]);
  });

  it("holds the contract table against every running service's own route table: no route outside it, no contract missing", () => {
    const { problems, registered: count, checked } = crossCheck(stack.services, {
      'queue-board': "Bull Board's own pages and calls, behind the operator's basic auth, never routed by the gateway",
    });
    console.info(`revocation: ${count} routes registered by ${checked.length} processes (${checked.join(', ')}), ${problems.length} outside the contracts or missing`);
    expect(problems).toEqual([]);
    expect(count).toBeGreaterThan(apiRoutes.length);
  });

  it('sorts every /api route: 401 without a token, unless its contract opens it with a reason', async () => {
    const unlisted: string[] = [];
    const stale: string[] = [];
    const lines: string[] = [];
    const bare: string[] = [];
    for (const route of apiRoutes) {
      const key = keyOf(route);
      const answer = await call(stack.baseUrl, route, undefined);
      if (answer.missingHeaders?.length) bare.push(`${key} -> ${answer.status} without ${answer.missingHeaders.join(', ')}`);
      lines.push(`  ${key.padEnd(50)} ${answer.status}${PUBLIC[key] ? '  (public)' : ''}`);
      if (answer.status === 401) {
        authenticated.push(route);
        if (PUBLIC[key]) stale.push(`${key} -> 401 without a token, but its contract opens it ("${PUBLIC[key]}")`);
      } else if (!PUBLIC[key]) {
        unlisted.push(`${key} -> ${answer.status} without a token: ${answer.text}`);
      }
    }
    console.info(
      [
        `revocation: ${apiRoutes.length} /api routes, ${authenticated.length} answer 401 without a token; public on purpose:`,
        ...Object.entries(PUBLIC).map(([key, reason]) => `  ${key}: ${reason}`),
        'without a token:',
        ...lines,
      ].join('\n'),
    );
    // Both lists, whichever fails.
    expect.soft(unlisted, `signed-in contracts answering without a token:\n${unlisted.join('\n')}`).toEqual([]);
    expect.soft(stale, `contracts that open a route which demands a token (the contract is wrong):\n${stale.join('\n')}`).toEqual([]);
    // Every answer, public or refused, carries the API's security headers through the gateway.
    expect.soft(bare, `answers without the security headers:\n${bare.join('\n')}`).toEqual([]);
    expect(authenticated.length).toBeGreaterThan(30);
  });

  it('refuses malformed identities at every authenticated route: a well-signed token whose user id is no UUID, or whose version is negative (issue 39)', async () => {
    // This stack's auth signs with the development key (never accepted in production): a forger holding it.
    const signer = await createTokenService({ keys: [DEV_SIGNING_KEY] });
    for (const claims of [
      { userId: "admin' OR '1'='1", tokenVersion: 0 },
      { userId: randomUUID(), tokenVersion: -1 },
    ]) {
      const sweep = await sweepOnce(stack.baseUrl, await signer.sign(claims), performance.now());
      expect(sweep.failures, `routes that did not answer 401 to ${JSON.stringify(claims)}`).toEqual([]);
    }
  });

  // In a test, not in beforeAll: a failing step shows as this test's failure.
  it("resets A's password the way the product does: forgot-password, the token it hands out in development, reset-password, login", async () => {
    const base = stack.baseUrl;
    a = await registerUser(base, 'revoked');
    old = a.token;

    const forgot = await fetch(`${base}/api/auth/forgot-password`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: a.email }),
    });
    expect(forgot.status, await forgot.clone().text()).toBe(200);
    const { token: resetToken } = (await forgot.json()) as ForgotPasswordResponse;
    if (!resetToken) throw new Error('the development stack hands out no reset token (forgot-password answer without `token`)');

    const newPassword = 'a-brand-new-secret-19';
    const reset = await fetch(`${base}/api/auth/reset-password`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: resetToken, newPassword }),
    });
    const resetAnsweredAt = performance.now();
    expect(reset.status, await reset.clone().text()).toBe(200);
    // At once, before anything else: the answer promises every service already refuses the old token.
    preReset = await sweepOnce(stack.baseUrl, old, resetAnsweredAt);

    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: a.email, password: newPassword }),
    });
    expect(login.status, await login.clone().text()).toBe(200);
    fresh = ((await login.json()) as AuthResponse).token;

    // The reset bumped A's token version: the two tokens are A's, of different versions.
    expect(claimsOf(old).sub).toBe(a.id);
    expect(claimsOf(fresh).sub).toBe(a.id);
    expect(claimsOf(fresh).tv).toBeGreaterThan(claimsOf(old).tv);
  });

  it('refused the pre-reset token with 401 at every authenticated route, each called once as soon as the reset answered', () => {
    expect(authenticated.length, 'no authenticated route was found').toBeGreaterThan(0);
    console.info(`revocation: ${authenticated.length} authenticated routes, ${authenticated.length - preReset.failures.length} refused the pre-reset token; sent ${preReset.sentAfterMs} ms after the reset's answer, the last refusal ${preReset.lastAnswerMs} ms after it`);
    expect(preReset.failures, "routes that did not answer 401, called once right after the reset's answer, to A's token from before it").toEqual([]);
    expect(preReset.sentAfterMs).toBeLessThan(1000);
  });

  it("refuses a deleted account's token with 401 at every authenticated route (issue 24)", async () => {
    expect(authenticated.length, 'no authenticated route was found').toBeGreaterThan(0);
    const b = await registerUser(stack.baseUrl, 'deleted');
    // Known everywhere first (its registration applied), so the refusal is the deletion's doing.
    await eventually(async () => (await callApi(stack.baseUrl, b.token, 'GET', '/api/notifications/unread-count')).status === 200, 'b known');
    const gone = await callApi(stack.baseUrl, b.token, 'DELETE', '/api/me', { password: b.password, confirm: 'DELETE' });
    const deletionAnsweredAt = performance.now();
    expect(gone.status).toBe(200);
    // At once, each route once: DELETE answers after every service has the tombstone (the USERS barrier).
    const sweep = await sweepOnce(stack.baseUrl, b.token, deletionAnsweredAt);
    console.info(`revocation: the deleted account's token refused at ${authenticated.length - sweep.failures.length} of ${authenticated.length} routes; sent ${sweep.sentAfterMs} ms after the answer, the last refusal ${sweep.lastAnswerMs} ms after it`);
    expect(sweep.failures, "routes that did not answer 401, called once right after the deletion's answer, to the deleted account's token").toEqual([]);
    expect(sweep.sentAfterMs).toBeLessThan(1000);
  });

  it("refuses a signed-out device's token with 401 at every authenticated route, while the person's other device goes on (issue 40)", async () => {
    expect(authenticated.length, 'no authenticated route was found').toBeGreaterThan(0);
    const d = await registerUser(stack.baseUrl, 'device');
    await eventually(async () => (await callApi(stack.baseUrl, d.token, 'GET', '/api/notifications/unread-count')).status === 200, 'd known');
    const login = await fetch(`${stack.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: d.email, password: d.password }),
    });
    const other = ((await login.json()) as AuthResponse).token;
    const listed = (await callApi(stack.baseUrl, other, 'GET', '/api/me/devices')).body as Device[];
    const first = listed.find((device) => !device.current);
    if (!first || listed.length !== 2) throw new Error(`d's devices: ${JSON.stringify(listed)}`);
    const signedOut = await callApi(stack.baseUrl, other, 'DELETE', `/api/me/devices/${first.id}`);
    const answeredAt = performance.now();
    expect(signedOut.status).toBe(200);
    // At once, each route once: the sign-out answers after every service has the device (the USERS barrier).
    const sweep = await sweepOnce(stack.baseUrl, d.token, answeredAt);
    console.info(`revocation: the signed-out device's token refused at ${authenticated.length - sweep.failures.length} of ${authenticated.length} routes; sent ${sweep.sentAfterMs} ms after the answer, the last refusal ${sweep.lastAnswerMs} ms after it`);
    expect(sweep.failures, "routes that did not answer 401, called once right after the sign-out's answer, to the signed-out device's token").toEqual([]);
    expect(sweep.sentAfterMs).toBeLessThan(1000);
    // The device that signed the other out is still signed in, here and at another service.
    expect((await callApi(stack.baseUrl, other, 'GET', '/api/me')).status).toBe(200);
    expect((await callApi(stack.baseUrl, other, 'GET', '/api/notifications/unread-count')).status).toBe(200);
  });

  // The negative control of the two sweeps above: they do catch a service that refuses late.
  it("finds the service whose people consumer is held past the barrier's bound still accepting the old token, and only that one", async () => {
    const c = await registerUser(stack.baseUrl, 'held');
    const url = stack.services.places.options.env.DATABASE_URL;
    if (!url) throw new Error('places has no DATABASE_URL');
    await eventually(() => serviceKnows(url, c.id), 'places knows c');
    // c's row in places' people table locked: places' consumer waits on it with c's password change.
    const hold = await holdPeopleConsumer('places', url, c.id);
    let sweep: Sweep;
    try {
      const changed = await callApi(stack.baseUrl, c.token, 'PUT', '/api/me/password', { currentPassword: c.password, newPassword: 'held-new-secret-38' });
      const answeredAt = performance.now();
      expect(changed.status).toBe(200);
      expect(await hold.engaged(), "places' consumer waits on the hold").toBe(true);
      sweep = await sweepOnce(stack.baseUrl, c.token, answeredAt);
    } finally {
      await hold.release();
    }
    console.info(`revocation (control): with places' people consumer held, ${sweep.failures.length} routes still accepted the old token after the answer (the barrier gave up at its bound), at: ${[...sweep.accepting].join(', ')}`);
    expect([...sweep.accepting]).toEqual(['places']);
    // Released, places catches up.
    const placesRoute = authenticated.find((route) => route.contract.service === 'places');
    if (!placesRoute) throw new Error('no authenticated places route');
    await eventually(async () => (await call(stack.baseUrl, placesRoute, c.token)).status === 401, 'places refusing once released');
  });

  it('accepts the post-reset token at the same routes (the control: the calls reach past authentication)', async () => {
    expect(authenticated.length, 'no authenticated route was found').toBeGreaterThan(0);
    const refused: string[] = [];
    for (const route of authenticated) {
      const answer = await call(stack.baseUrl, route, fresh);
      // Any answer but 401 shows the token got past authentication; no answer at all (status 0) shows nothing.
      if (answer.status === 401 || answer.status === 0) refused.push(`${keyOf(route)} -> ${answer.status}: ${answer.text}`);
    }
    expect(refused, `routes that answered 401 (or not at all) to A's fresh token from after the reset:\n${refused.join('\n')}`).toEqual([]);
  });
});
