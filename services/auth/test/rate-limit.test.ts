import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@hoptrack/testing';
import { privateRedis, type PrivateServer } from '@hoptrack/testing/servers';
import { startTestAuth, type TestAuth } from './support';

let auth: TestAuth;
beforeAll(async () => {
  auth = await startTestAuth({ LOGIN_RATE_LIMIT_MAX: '3', LOGIN_ACCOUNT_FAILURES_MAX: '5', FORGOT_RATE_LIMIT_MAX: '2' });
});
afterAll(() => auth.close());

describe('rate limits', () => {
  it('answers 429 with a message after too many logins for one account from one address', async () => {
    const { body } = await auth.register();
    const attempt = (email: string) =>
      auth.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'wrong-password' }, remoteAddress: '10.9.8.7' });
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await attempt(body.email)).statusCode);
    expect(codes).toEqual([401, 401, 401, 429]);
    const limited = await attempt(body.email);
    expect(limited.json()).toMatchObject({ statusCode: 429, message: 'Too many login attempts, please try again later.' });
    // Another account from the same address is not locked out by someone else's guessing.
    expect((await attempt(`other-${body.email}`)).statusCode).toBe(401);
  });

  it('limits forgot-password per address', async () => {
    const ask = () =>
      auth.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: 'who@example.com' }, remoteAddress: '10.1.2.3' });
    expect((await ask()).statusCode).toBe(200);
    expect((await ask()).statusCode).toBe(200);
    const limited = await ask();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe('Too many password reset requests, please try again later.');
  });

  it('counts failed logins per account across addresses (credential stuffing): past the limit, no address may try that account', async () => {
    const { body } = await auth.register();
    const from = (address: string, password = 'wrong-password', email = body.email) =>
      auth.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: address });
    // Five addresses, one guess each: every one under the per-address limit of 3.
    const codes = [];
    for (let i = 1; i <= 5; i++) codes.push((await from(`10.20.0.${i}`)).statusCode);
    expect(codes).toEqual([401, 401, 401, 401, 401]);
    // A sixth address, even with the right password: the account is closed to logins for the window.
    const sixth = await from('10.20.0.6', body.password);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().message).toBe('Too many login attempts, please try again later.');
    // Another account is not affected.
    const other = await auth.register();
    expect((await from('10.20.0.6', other.body.password, other.body.email)).statusCode).toBe(200);
  });

  it('successful logins do not count towards the account limit', async () => {
    const { body } = await auth.register();
    for (let i = 1; i <= 7; i++) {
      const res = await auth.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: body.email, password: body.password }, remoteAddress: `10.30.0.${i}` });
      expect(res.statusCode, `login ${i}`).toBe(200);
    }
  });
});

describe('with Redis down, the limited routes fail closed', () => {
  let redis: PrivateServer;
  let cut: TestAuth;
  beforeAll(async () => {
    redis = await privateRedis();
    cut = await startTestAuth({ REDIS_URL: redis.url, LOGIN_RATE_LIMIT_MAX: '3' });
  });
  afterAll(async () => {
    await cut?.close();
    await redis?.stop();
  });

  it('answers 503 to login and forgot-password (never a password check), and counts again once Redis is back', async () => {
    const { body } = await cut.register();
    const login = (password: string) => cut.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: body.email, password }, remoteAddress: '10.40.0.1' });
    expect((await login(body.password)).statusCode).toBe(200);
    await redis.kill();
    // The right password and a wrong one answer alike: nothing is checked without the limits.
    for (const password of [body.password, 'wrong-password']) {
      const res = await login(password);
      expect(res.statusCode, res.body).toBe(503);
    }
    const forgot = await cut.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: body.email }, remoteAddress: '10.40.0.1' });
    expect(forgot.statusCode).toBe(503);
    await redis.start();
    await eventually(async () => (await login(body.password)).statusCode === 200, 'login again once Redis is back');
  });
});
