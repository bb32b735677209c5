import { EMAIL_VERIFICATION_TTL_MS } from '@hoptrack/proto';
import { startMailCatcher, type MailCatcher } from '@hoptrack/testing/mail';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALREADY_VERIFIED, UNVERIFIED_BIO_LINK } from '../src/domain/accounts';
import { hashResetToken } from '../src/domain/reset-tokens';
import { TOO_MANY_RESENDS } from '../src/routes/auth.handlers';
import { bearer, startTestAuth, type TestAuth } from './support';

/**
 * E-mail verification (issue 24, item 1): the mail goes through the mail relay
 * to a real SMTP catcher, and the link's token is read from the mail itself.
 */
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

const post = (url: string, payload: object, token?: string) =>
  auth.app.inject({ method: 'POST', url, payload, headers: token ? bearer(token) : {} });
const me = async (token: string) => (await auth.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) })).json<{ isEmailVerified: boolean }>();

/** The newest verification link mailed to `email`, as the relay sent it. */
async function mailedToken(email: string): Promise<string> {
  await auth.mail.drain();
  const mail = catcher.messages.filter((m) => m.to.includes(email) && m.subject === 'Verify your Hoptrack e-mail address').at(-1);
  const link = mail?.text.match(/http:\/\/web\.test\/verify-email\?token=([A-Za-z0-9_%-]+)/);
  if (!link?.[1]) throw new Error(`no verification mail for ${email}`);
  return decodeURIComponent(link[1]);
}

describe('e-mail verification', () => {
  it('mails a link on register whose token verifies the address, once', async () => {
    const { body, token, userId } = await auth.register();
    expect((await me(token)).isEmailVerified).toBe(false);
    const verifyToken = await mailedToken(body.email);
    expect(Buffer.from(verifyToken, 'base64url').length).toBeGreaterThanOrEqual(16);
    // Stored hashed, never as sent.
    const stored = await auth.prisma.user.findUniqueOrThrow({ where: { id: userId } });
    expect(stored.emailVerificationToken).toBe(hashResetToken(verifyToken));
    // The job keeps neither the link nor the address once sent.
    expect(await auth.prisma.mailJob.count({ where: { OR: [{ recipient: body.email }, { kind: 'email-verification', link: { not: null } }] } })).toBe(0);

    const ok = await post('/api/auth/verify-email', { token: verifyToken });
    expect(ok.statusCode).toBe(200);
    expect((await me(token)).isEmailVerified).toBe(true);

    const again = await post('/api/auth/verify-email', { token: verifyToken });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('Invalid or expired verification token');
  });

  it('refuses an expired link (24 h) and a made-up one, and validates the body', async () => {
    const { body, token } = await auth.register();
    const verifyToken = await mailedToken(body.email);
    auth.clock.advance(EMAIL_VERIFICATION_TTL_MS + 1000);
    const expired = await post('/api/auth/verify-email', { token: verifyToken });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe('Invalid or expired verification token');
    expect((await me(token)).isEmailVerified).toBe(false);

    expect((await post('/api/auth/verify-email', { token: 'not-a-token' })).statusCode).toBe(400);
    const missing = await post('/api/auth/verify-email', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('token');
    expect(missing.json()).toMatchObject({ field: 'token', message: 'token is required' });
  });

  it('resends a new link (the old one stops working), once a minute per person', async () => {
    const { body, token } = await auth.register();
    const first = await mailedToken(body.email);
    const resent = await post('/api/auth/resend-verification', {}, token);
    expect(resent.statusCode).toBe(200);
    const second = await mailedToken(body.email);
    expect(second).not.toBe(first);

    const tooSoon = await post('/api/auth/resend-verification', {}, token);
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json().message).toBe(TOO_MANY_RESENDS);

    expect((await post('/api/auth/verify-email', { token: first })).statusCode).toBe(400);
    expect((await post('/api/auth/verify-email', { token: second })).statusCode).toBe(200);

    // Signed in only.
    expect((await post('/api/auth/resend-verification', {})).statusCode).toBe(401);
  });

  it('says so when the address is already verified', async () => {
    const { body, token } = await auth.register();
    expect((await post('/api/auth/verify-email', { token: await mailedToken(body.email) })).statusCode).toBe(200);
    const res = await post('/api/auth/resend-verification', {}, token);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(ALREADY_VERIFIED);
  });

  it('keeps links out of an unverified bio, and lets them in once verified', async () => {
    const { body, token } = await auth.register();
    const patch = (bio: string) => auth.app.inject({ method: 'PATCH', url: '/api/me', payload: { bio }, headers: bearer(token) });
    expect((await patch('Stouts and porters')).statusCode).toBe(200);
    const refused = await patch('Cheap beer at https://spam.example');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(UNVERIFIED_BIO_LINK);

    expect((await post('/api/auth/verify-email', { token: await mailedToken(body.email) })).statusCode).toBe(200);
    expect((await patch('My brewery: https://brew.example')).statusCode).toBe(200);
  });
});
