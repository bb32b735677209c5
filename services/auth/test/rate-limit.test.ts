import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAuth, type TestAuth } from './support';

let auth: TestAuth;
beforeAll(async () => {
  auth = await startTestAuth({ LOGIN_RATE_LIMIT_MAX: '3', FORGOT_RATE_LIMIT_MAX: '2' });
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
});
