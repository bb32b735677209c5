import { startMailCatcher, type MailCatcher } from '@hoptrack/testing/mail';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNCLAIMED_ACCOUNT_LIFETIME_MS } from '../src/domain/accounts';
import { bearer, startTestAuth, uniqueUser, type TestAuth } from './support';

let auth: TestAuth;
let catcher: MailCatcher;
beforeAll(async () => {
  catcher = await startMailCatcher();
  auth = await startTestAuth({ SMTP_URL: catcher.smtpUrl });
});
afterAll(async () => {
  await auth.close();
  await catcher.close();
});

const post = (url: string, payload: unknown) => auth.app.inject({ method: 'POST', url, payload: payload as object });

describe('register', () => {
  it('creates the account with the spec defaults and signs the user in', async () => {
    const body = uniqueUser({ email: '  Mixed.Case@Example.COM ' });
    const res = await post('/api/auth/register', body);
    expect(res.statusCode).toBe(201);
    const json = res.json();
    expect(json.message).toBe('Account created successfully');
    expect(json.token).toMatch(/^ey/);
    expect(json.user).toMatchObject({
      email: 'mixed.case@example.com',
      username: body.username,
      displayName: body.displayName,
      bio: null,
      profilePicture: null,
      isProfilePrivate: false,
      allowDirectMessages: true,
      showOnlineStatus: true,
      socialMediaPublic: false,
      isEmailVerified: false,
    });
    expect(json.user).not.toHaveProperty('password');

    const me = await auth.app.inject({ method: 'GET', url: '/api/me', headers: bearer(json.token) });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(json.user);
  });

  it('stores an argon2id hash, never the password', async () => {
    const { userId, body } = await auth.register();
    const stored = await auth.prisma.user.findUniqueOrThrow({ where: { id: userId } });
    expect(stored.password).toMatch(/^\$argon2id\$/);
    expect(stored.password).not.toContain(body.password);
  });

  it('hashes with argon2id at or above the OWASP floor (m >= 19 MiB, t >= 2)', async () => {
    const { userId } = await auth.register();
    const stored = await auth.prisma.user.findUniqueOrThrow({ where: { id: userId } });
    // PHC string: $argon2id$v=19$m=…,t=…,p=…$salt$hash (the parameters in any order).
    expect(stored.password).toMatch(/^\$argon2id\$v=19\$/);
    const params = Object.fromEntries((stored.password.split('$')[3] ?? '').split(',').map((kv) => kv.split('=')));
    const [memoryKiB, iterations] = [params.m, params.t];
    expect(Number(memoryKiB)).toBeGreaterThanOrEqual(19 * 1024);
    expect(Number(iterations)).toBeGreaterThanOrEqual(2);
  });

  it.each([
    ['64 characters', 'p'.repeat(63) + 'Z'],
    ['emoji', '🍺🍻 cheers, 乾杯! 🥂'],
    ['200 characters', 'x'.repeat(199) + '!'],
  ])('signs in with a %s password, and nothing of it is truncated', async (_kind, password) => {
    const { body } = await auth.register({ password });
    expect((await post('/api/auth/login', { email: body.email, password })).statusCode).toBe(200);
    // The same password with its last character changed must fail: every character counts.
    const altered = `${[...password].slice(0, -1).join('')}#`;
    expect((await post('/api/auth/login', { email: body.email, password: altered })).statusCode).toBe(401);
  });

  it.each([
    [{ email: 'not-an-email' }, 'email', 'Please enter a valid email address'],
    [{ email: undefined }, 'email', 'email is required'],
    [{ username: 'ab' }, 'username', 'Username must be at least 3 characters'],
    [{ username: 'a'.repeat(31) }, 'username', 'Username must be at most 30 characters'],
    [{ username: 'has space' }, 'username', 'Username may only contain letters, numbers, dots, dashes and underscores'],
    [{ displayName: '' }, 'displayName', 'Display name is required'],
    [{ displayName: 'x'.repeat(51) }, 'displayName', 'Display name must be at most 50 characters'],
    [{ password: '12345' }, 'password', 'Password must be at least 6 characters long'],
    [{ password: 123456 }, 'password', 'password must be a string'],
  ])('rejects %j with 400 naming %s', async (override, field, message) => {
    const res = await post('/api/auth/register', { ...uniqueUser(), ...override });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', field, message });
  });

  it('accepts the boundary lengths', async () => {
    const res = await post('/api/auth/register', uniqueUser({ username: `b${Date.now()}`.padEnd(30, 'x').slice(0, 30), displayName: 'd'.repeat(50), password: '123456' }));
    expect(res.statusCode).toBe(201);
  });

  it('answers 409 naming the duplicate username, whatever its case', async () => {
    const { body } = await auth.register();
    const res = await post('/api/auth/register', uniqueUser({ username: body.username.toUpperCase() }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ field: 'username', message: 'Username already taken' });
  });

  it('keeps exactly one account when the same registration races itself', async () => {
    const body = uniqueUser();
    const results = await Promise.all([post('/api/auth/register', body), post('/api/auth/register', body)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await auth.prisma.user.count({ where: { email: body.email } })).toBe(1);
  });

  it('answers 400, not 500, to a body that is not JSON or not an object', async () => {
    const broken = await auth.app.inject({ method: 'POST', url: '/api/auth/register', payload: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toBe('Request body is not valid JSON');
    const array = await post('/api/auth/register', [1, 2]);
    expect(array.statusCode).toBe(400);
    expect(array.json()).toMatchObject({ field: 'body', message: 'Request body must be a JSON object' });
  });
});

describe('login', () => {
  it('signs in with the right password, e-mail in any case', async () => {
    const { body, userId } = await auth.register();
    const res = await post('/api/auth/login', { email: body.email.toUpperCase(), password: body.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Login successful', user: { id: userId } });
  });

  it('refuses a wrong password and an unknown e-mail with the same answer', async () => {
    const { body } = await auth.register();
    const wrong = await post('/api/auth/login', { email: body.email, password: 'not-the-password' });
    const unknown = await post('/api/auth/login', { email: 'nobody@example.com', password: 'whatever1' });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ statusCode: 401, message: 'Invalid email or password' });
    }
  });

  it('validates the body', async () => {
    const res = await post('/api/auth/login', { email: 'x@example.com' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: 'password', message: 'password is required' });
  });
});

describe('/api/me', () => {
  it('answers 401 without a token, with a malformed one, and with a forged one', async () => {
    const forged = await auth.tokens.sign({ userId: '00000000-0000-4000-8000-000000000000', tokenVersion: 0 });
    for (const headers of [{}, { authorization: 'Bearer nonsense' }, { authorization: 'Basic abc' }, bearer(`${forged}x`)]) {
      const res = await auth.app.inject({ method: 'GET', url: '/api/me', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json().statusCode).toBe(401);
    }
  });

  it('answers 401 for a well-signed token of a user that does not exist', async () => {
    const token = await auth.tokens.sign({ userId: '00000000-0000-4000-8000-000000000000', tokenVersion: 0 });
    const res = await auth.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });
    expect(res.statusCode).toBe(401);
  });

  it('answers 401 once the token has expired', async () => {
    const { token } = await auth.register();
    auth.clock.advance(8 * 24 * 60 * 60 * 1000);
    const res = await auth.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Invalid or expired token');
  });
});

/**
 * Issue 40, item 14: registering with an address that has an account answers
 * as a fresh registration (no one learns which addresses have accounts); the
 * owner is mailed instead, the address stays theirs (docs/decisions.md).
 */
describe('an address that already has an account', () => {
  /** What the relay sent to `address`, subjects in order. */
  async function mailTo(address: string) {
    await auth.mail.drain();
    return catcher.messages.filter((m) => m.to.includes(address));
  }
  const put = (url: string, token: string, payload: object) => auth.app.inject({ method: 'PUT', url, payload, headers: bearer(token) });

  it('answers a registration as a fresh one, and mails the owner instead of a link', async () => {
    const owner = await auth.register();
    const free = await post('/api/auth/register', uniqueUser());
    const taken = await post('/api/auth/register', uniqueUser({ email: owner.body.email.toUpperCase(), password: 'someone-else' }));
    expect(taken.statusCode).toBe(free.statusCode);
    expect(taken.statusCode).toBe(201);
    const [freeJson, takenJson] = [free.json(), taken.json()];
    expect(Object.keys(takenJson).sort()).toEqual(Object.keys(freeJson).sort());
    expect(Object.keys(takenJson.user).sort()).toEqual(Object.keys(freeJson.user).sort());
    expect(takenJson).toMatchObject({ message: freeJson.message, user: { email: owner.body.email, isEmailVerified: false } });
    expect(takenJson.token).toMatch(/^ey/);
    expect(takenJson.user.id).not.toBe(owner.userId);
    // The same work: one mail job each, and the same version of the account.
    expect(await auth.prisma.user.findUniqueOrThrow({ where: { id: takenJson.user.id } })).toMatchObject({ emailClaimed: false, version: 2, emailVerificationToken: null });
    expect((await auth.prisma.user.findUniqueOrThrow({ where: { id: freeJson.user.id } })).version).toBe(2);

    const mails = await mailTo(owner.body.email);
    // The owner's own verification link, then the notice naming their username; never a link for the newcomer.
    expect(mails.map((m) => m.subject)).toEqual(['Verify your Hoptrack e-mail address', 'Someone tried to create a Hoptrack account with your address']);
    expect(mails[1]?.text).toContain(`Someone tried to create a Hoptrack account with this address. You already have one, @${owner.body.username}.`);
    expect(mails[1]?.text).toContain('If that was you, sign in or reset your password: http://web.test/forgot-password');
  });

  it('keeps refusing a taken username: usernames are public', async () => {
    const owner = await auth.register();
    const res = await post('/api/auth/register', uniqueUser({ email: owner.body.email, username: owner.body.username }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ field: 'username', message: 'Username already taken' });
  });

  it('signs each in with their own password; forgot-password and verification reach only the owner', async () => {
    const owner = await auth.register();
    const other = await post('/api/auth/register', uniqueUser({ email: owner.body.email, password: 'the-newcomers-secret' }));
    const otherId = other.json().user.id as string;

    const asOther = await post('/api/auth/login', { email: owner.body.email, password: 'the-newcomers-secret' });
    expect(asOther.statusCode).toBe(200);
    expect(asOther.json().user.id).toBe(otherId);
    const asOwner = await post('/api/auth/login', { email: owner.body.email, password: owner.body.password });
    expect(asOwner.statusCode).toBe(200);
    expect(asOwner.json().user.id).toBe(owner.userId);
    const wrong = await post('/api/auth/login', { email: owner.body.email, password: 'neither-of-them' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe('Invalid email or password');

    // The newcomer's resend answers as usual, and mails nothing; the owner's reset link is the owner's account's.
    const resend = await auth.app.inject({ method: 'POST', url: '/api/auth/resend-verification', headers: bearer(other.json().token) });
    expect(resend.statusCode).toBe(200);
    const forgot = await post('/api/auth/forgot-password', { email: owner.body.email });
    expect(forgot.statusCode).toBe(200);
    const verify = await auth.app.inject({ method: 'GET', url: `/api/auth/verify-reset-token/${encodeURIComponent(forgot.json().token)}` });
    expect(verify.json()).toEqual({ email: owner.body.email });
    expect(await auth.prisma.passwordReset.count({ where: { userId: otherId } })).toBe(0);
    expect(await auth.prisma.passwordReset.count({ where: { userId: owner.userId } })).toBe(1);
    const subjects = (await mailTo(owner.body.email)).map((m) => m.subject);
    expect(subjects.filter((s) => s === 'Verify your Hoptrack e-mail address')).toHaveLength(1);
    expect(subjects).toContain('Reset your Hoptrack password');
  });

  it('makes two accounts, one claiming the address, when the same address registers twice at once', async () => {
    const email = uniqueUser().email;
    const results = await Promise.all([post('/api/auth/register', uniqueUser({ email })), post('/api/auth/register', uniqueUser({ email }))]);
    expect(results.map((r) => r.statusCode)).toEqual([201, 201]);
    const rows = await auth.prisma.user.findMany({ where: { email }, select: { emailClaimed: true } });
    expect(rows.map((r) => r.emailClaimed).sort()).toEqual([false, true]);
  });

  it('moves an unclaimed account to a free address, which it then claims', async () => {
    const owner = await auth.register();
    const other = await post('/api/auth/register', uniqueUser({ email: owner.body.email, password: 'the-newcomers-secret' }));
    const newEmail = uniqueUser().email;
    const moved = await put('/api/me/email', other.json().token, { currentPassword: 'the-newcomers-secret', newEmail });
    expect(moved.statusCode).toBe(200);
    await auth.mail.drain();
    const link = catcher.messages.filter((m) => m.to.includes(newEmail)).at(-1)?.text.match(/verify-email\?token=([A-Za-z0-9_%-]+)/)?.[1];
    expect(link).toBeDefined();
    expect((await post('/api/auth/verify-email', { token: decodeURIComponent(link ?? '') })).statusCode).toBe(200);
    expect(await auth.prisma.user.findUniqueOrThrow({ where: { id: other.json().user.id } })).toMatchObject({ email: newEmail, emailClaimed: true, isEmailVerified: true });
  });

  it('answers PUT /api/me/email to a claimed address as a success, and tells its owner instead of mailing a link', async () => {
    const owner = await auth.register();
    const mover = await auth.register();
    const free = await put('/api/me/email', (await auth.register()).token, { currentPassword: mover.body.password, newEmail: uniqueUser().email });
    const res = await put('/api/me/email', mover.token, { currentPassword: mover.body.password, newEmail: owner.body.email });
    expect(res.statusCode).toBe(free.statusCode);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(Object.keys(free.json()).sort());
    expect(res.json()).toMatchObject({ user: { pendingEmail: owner.body.email } });

    const toOwner = await mailTo(owner.body.email);
    expect(toOwner.map((m) => m.subject)).toEqual(['Verify your Hoptrack e-mail address', 'Someone tried to move a Hoptrack account to your address']);
    expect(toOwner[1]?.text).toContain(`You already have one, @${owner.body.username}`);
    // The mover's old address still hears of the change, as for any change.
    expect((await mailTo(mover.body.email)).map((m) => m.subject)).toContain('Your Hoptrack e-mail address is being changed');
    // A resend sends the owner nothing more, and the change never takes effect.
    expect((await auth.app.inject({ method: 'POST', url: '/api/auth/resend-verification', headers: bearer(mover.token) })).statusCode).toBe(200);
    expect(await mailTo(owner.body.email)).toHaveLength(2);
    expect((await auth.prisma.user.findUniqueOrThrow({ where: { id: mover.userId } })).email).toBe(mover.body.email);
  });

  it('erases an unclaimed account 7 days after it was made, by the deletion path; the owner stays', async () => {
    const owner = await auth.register();
    const other = await post('/api/auth/register', uniqueUser({ email: owner.body.email }));
    const otherId = other.json().user.id as string;
    auth.clock.advance(UNCLAIMED_ACCOUNT_LIFETIME_MS - 60_000);
    const younger = await post('/api/auth/register', uniqueUser({ email: owner.body.email }));
    await auth.unclaimedSweep.runOnce();
    expect(await auth.prisma.user.count({ where: { id: otherId } })).toBe(1);

    auth.clock.advance(120_000);
    // Earlier tests' unclaimed accounts are past their 7 days too: the count is at least this one.
    expect(await auth.unclaimedSweep.runOnce()).toBeGreaterThanOrEqual(1);
    expect(await auth.prisma.user.count({ where: { id: otherId } })).toBe(0);
    expect(await auth.prisma.user.count({ where: { id: { in: [owner.userId, younger.json().user.id] } } })).toBe(2);
    const deleted = await auth.prisma.outboxEvent.findMany({ where: { subject: { endsWith: 'user.deleted.v1' } } });
    expect(deleted.map((e) => (e.payload as { data: { userId: string } }).data.userId)).toContain(otherId);
    // The owner's address is not the erasure's: the erasure names no address.
    expect(await auth.prisma.erasure.findUniqueOrThrow({ where: { userId: otherId } })).toMatchObject({ email: '' });
  });
});
