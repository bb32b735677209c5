import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestAuth, uniqueUser, type TestAuth } from './support';

let auth: TestAuth;
beforeAll(async () => {
  auth = await startTestAuth();
});
afterAll(() => auth.close());

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

  it('answers 409 naming the duplicate e-mail', async () => {
    const { body } = await auth.register();
    const res = await post('/api/auth/register', uniqueUser({ email: body.email.toUpperCase() }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ field: 'email', message: 'Email already registered' });
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
