import { RESET_TOKEN_TTL_MS } from '@hoptrack/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestAuth, type TestAuth } from './support';

let auth: TestAuth;
beforeAll(async () => {
  auth = await startTestAuth();
});
afterAll(() => auth.close());

const post = (url: string, payload: object) => auth.app.inject({ method: 'POST', url, payload });

async function forgot(email: string): Promise<{ token: string; resetUrl: string; message: string }> {
  const res = await post('/api/auth/forgot-password', { email });
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe('forgot password', () => {
  it('answers the same message whether or not the e-mail exists, without a token for a stranger', async () => {
    const { body } = await auth.register();
    const known = await forgot(body.email);
    const unknown = await forgot('nobody-here@example.com');
    expect(known.message).toBe(unknown.message);
    expect(unknown).not.toHaveProperty('token');
    expect(known.resetUrl).toBe(`http://web.test/reset-password?token=${encodeURIComponent(known.token)}`);
  });

  it('stores only a hash of the token, and logs the link when SMTP is not configured', async () => {
    const { body, userId } = await auth.register();
    const { token, resetUrl } = await forgot(body.email);
    const stored = await auth.prisma.passwordReset.findMany({ where: { userId } });
    expect(stored).toHaveLength(1);
    expect(stored[0]?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[0]?.tokenHash).not.toBe(token);
    // The mail relay logs it when it sends, after the answer.
    await auth.mail.drain();
    expect(auth.logs.some((line) => line.link === resetUrl)).toBe(true);
  });

  it('validates the e-mail', async () => {
    const res = await post('/api/auth/forgot-password', { email: 'nope' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: 'email', message: 'Please enter a valid email address' });
  });
});

describe('reset password', () => {
  it('verifies the token, resets, and signs in with the new password only', async () => {
    const { body } = await auth.register();
    const { token } = await forgot(body.email);

    const verify = await auth.app.inject({ method: 'GET', url: `/api/auth/verify-reset-token/${token}` });
    expect(verify.statusCode).toBe(200);
    expect(verify.json()).toEqual({ email: body.email });

    const reset = await post('/api/auth/reset-password', { token, newPassword: 'brand-new-pass' });
    expect(reset.statusCode).toBe(200);

    expect((await post('/api/auth/login', { email: body.email, password: body.password })).statusCode).toBe(401);
    expect((await post('/api/auth/login', { email: body.email, password: 'brand-new-pass' })).statusCode).toBe(200);
  });

  it('refuses a token a second time (single use)', async () => {
    const { body } = await auth.register();
    const { token } = await forgot(body.email);
    expect((await post('/api/auth/reset-password', { token, newPassword: 'first-new-pass' })).statusCode).toBe(200);
    const again = await post('/api/auth/reset-password', { token, newPassword: 'second-new-pass' });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('Invalid or expired reset token');
    const verify = await auth.app.inject({ method: 'GET', url: `/api/auth/verify-reset-token/${token}` });
    expect(verify.statusCode).toBe(400);
  });

  it('refuses a token after one hour, and accepts it just before', async () => {
    const { body } = await auth.register();
    const first = await forgot(body.email);
    auth.clock.advance(RESET_TOKEN_TTL_MS - 1000);
    expect((await auth.app.inject({ method: 'GET', url: `/api/auth/verify-reset-token/${first.token}` })).statusCode).toBe(200);
    auth.clock.advance(2000);
    const expired = await post('/api/auth/reset-password', { token: first.token, newPassword: 'too-late-pass' });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe('Invalid or expired reset token');
    expect((await post('/api/auth/login', { email: body.email, password: body.password })).statusCode).toBe(200);
  });

  it('replaces an older token when a new one is requested', async () => {
    const { body } = await auth.register();
    const older = await forgot(body.email);
    const newer = await forgot(body.email);
    expect((await post('/api/auth/reset-password', { token: older.token, newPassword: 'older-token-pass' })).statusCode).toBe(400);
    expect((await post('/api/auth/reset-password', { token: newer.token, newPassword: 'newer-token-pass' })).statusCode).toBe(200);
  });

  it('revokes bearer tokens issued before the reset', async () => {
    const { body, token: oldToken } = await auth.register();
    expect((await auth.app.inject({ method: 'GET', url: '/api/me', headers: bearer(oldToken) })).statusCode).toBe(200);
    const { token } = await forgot(body.email);
    await post('/api/auth/reset-password', { token, newPassword: 'revoking-pass' });
    const stale = await auth.app.inject({ method: 'GET', url: '/api/me', headers: bearer(oldToken) });
    expect(stale.statusCode).toBe(401);
    const login = await post('/api/auth/login', { email: body.email, password: 'revoking-pass' });
    const fresh = await auth.app.inject({ method: 'GET', url: '/api/me', headers: bearer(login.json().token) });
    expect(fresh.statusCode).toBe(200);
  });

  it.each([
    [{ token: 'x', newPassword: '12345' }, 'newPassword', 'Password must be at least 6 characters long'],
    [{ newPassword: '123456' }, 'token', 'token is required'],
    [{ token: '', newPassword: '123456' }, 'token', 'Token is required'],
  ])('validates %j', async (payload, field, message) => {
    const res = await post('/api/auth/reset-password', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field, message });
  });

  it('answers 400 for an unknown token', async () => {
    const res = await auth.app.inject({ method: 'GET', url: '/api/auth/verify-reset-token/does-not-exist' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Invalid or expired reset token');
  });
});
