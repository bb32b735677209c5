import { EMAIL_CHANGE_NOTICE_SUBJECT, EMAIL_CHANGE_VERIFICATION_SUBJECT, PASSWORD_CHANGED_SUBJECT, subjectFor } from '@hoptrack/proto';
import { ERASING_SERVICES } from '@hoptrack/runtime';
import { eventually, readEvents } from '@hoptrack/testing';
import { startMailCatcher, type MailCatcher } from '@hoptrack/testing/mail';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailKey, limitKeys, personLimitKeys } from '../src/domain/limit-keys';
import { bearer, startTestAuth, type TestAuth } from './support';

/**
 * Issue 24, items 2 and 4 at the auth service: credentials while signed in
 * (both ask for the password again), and an account's deletion up to the
 * scrub of the streams once every service reported its erasure. The mail
 * goes through the relay to a real SMTP catcher.
 */
let auth: TestAuth;
let catcher: MailCatcher;
beforeAll(async () => {
  catcher = await startMailCatcher();
  // The definition's own erasure reports' consumer and scrubber, beside the mail relay.
  auth = await startTestAuth({ SMTP_URL: catcher.smtpUrl, ERASURE_POLL_MS: '200', ERASURE_RESWEEP_MS: '500' }, { consumers: ['mail', 'erasureReports', 'scrubber'] });
});
afterAll(async () => {
  await auth?.close();
  await catcher?.close();
});

const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, token?: string, payload?: object) =>
  auth.app.inject({ method, url, ...(payload ? { payload } : {}), headers: token ? bearer(token) : {} });
const login = (email: string, password: string) => call('POST', '/api/auth/login', undefined, { email, password });

/** The newest mail of `subject` to `email`, as the relay sent it. */
async function mailTo(email: string, subject: string): Promise<string> {
  await auth.mail.drain();
  const mail = catcher.messages.filter((m) => m.to.includes(email) && m.subject === subject).at(-1);
  if (!mail) throw new Error(`no '${subject}' mail for ${email}`);
  return mail.text;
}
const linkToken = (text: string) => decodeURIComponent(text.match(/\/verify-email\?token=([A-Za-z0-9_%-]+)/)?.[1] ?? '');

describe('change password while signed in', () => {
  it('asks for the current password, answers a new token, and every other token dies', async () => {
    const { body, token } = await auth.register();
    const other = (await login(body.email, body.password)).json<{ token: string }>().token;

    const wrong = await call('PUT', '/api/me/password', token, { currentPassword: 'not-my-password', newPassword: 'brand-new-secret' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ field: 'currentPassword', message: 'Current password is incorrect' });
    const short = await call('PUT', '/api/me/password', token, { currentPassword: body.password, newPassword: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().field).toBe('newPassword');
    const same = await call('PUT', '/api/me/password', token, { currentPassword: body.password, newPassword: body.password });
    expect(same.statusCode).toBe(400);

    const changed = await call('PUT', '/api/me/password', token, { currentPassword: body.password, newPassword: 'brand-new-secret' });
    expect(changed.statusCode).toBe(200);
    const fresh = changed.json<{ token: string }>().token;
    expect((await call('GET', '/api/me', fresh)).statusCode).toBe(200);
    expect((await call('GET', '/api/me', token)).statusCode).toBe(401);
    expect((await call('GET', '/api/me', other)).statusCode).toBe(401);
    expect((await login(body.email, body.password)).statusCode).toBe(401);
    expect((await login(body.email, 'brand-new-secret')).statusCode).toBe(200);
    // The other services learn the new token version from the event.
    const updates = (await auth.events()).filter((e) => e.type === 'user.updated.v1' && e.data.email === body.email);
    expect(updates.at(-1)?.data.tokenVersion).toBe(1);
  });

  it('tells the owner by mail after a change and after a reset, with the way to take the account back', async () => {
    const { body, token } = await auth.register();
    expect((await call('PUT', '/api/me/password', token, { currentPassword: body.password, newPassword: 'brand-new-secret' })).statusCode).toBe(200);
    const changed = await mailTo(body.email, PASSWORD_CHANGED_SUBJECT);
    expect(changed).toContain('every other device was signed out');
    expect(changed).toContain('http://web.test/forgot-password');
    expect(changed).toContain('reply to this e-mail');

    const asked = await call('POST', '/api/auth/forgot-password', undefined, { email: body.email });
    const reset = await call('POST', '/api/auth/reset-password', undefined, { token: asked.json<{ token: string }>().token, newPassword: 'another-new-secret' });
    expect(reset.statusCode).toBe(200);
    await auth.mail.drain();
    expect(catcher.messages.filter((m) => m.to.includes(body.email) && m.subject === PASSWORD_CHANGED_SUBJECT)).toHaveLength(2);
    // A failed change tells nobody.
    const again = (await login(body.email, 'another-new-secret')).json<{ token: string }>().token;
    expect((await call('PUT', '/api/me/password', again, { currentPassword: 'wrong-password', newPassword: 'third-new-secret' })).statusCode).toBe(400);
    await auth.mail.drain();
    expect(catcher.messages.filter((m) => m.to.includes(body.email) && m.subject === PASSWORD_CHANGED_SUBJECT)).toHaveLength(2);
  });
});

describe('change e-mail while signed in', () => {
  it('verifies the new address before it takes effect, and tells the old one', async () => {
    const { body, token } = await auth.register();
    const newEmail = `moved-${randomUUID().slice(0, 8)}@example.com`;
    expect((await call('PUT', '/api/me/email', token, { currentPassword: 'nope', newEmail })).json().field).toBe('currentPassword');
    expect((await call('PUT', '/api/me/email', token, { currentPassword: body.password, newEmail: body.email })).json()).toMatchObject({
      field: 'newEmail',
      message: 'That is already your e-mail address',
    });
    expect((await call('PUT', '/api/me/email', token, { currentPassword: body.password, newEmail: 'not-an-address' })).json().field).toBe('newEmail');
    // An address another account claims answers as a free one (issue 40, item 14): register-login.test.ts, 'an address that already has an account'.

    const asked = await call('PUT', '/api/me/email', token, { currentPassword: body.password, newEmail: newEmail.toUpperCase() });
    expect(asked.statusCode).toBe(200);
    expect(asked.json().user).toMatchObject({ email: body.email, pendingEmail: newEmail });
    expect(await mailTo(body.email, EMAIL_CHANGE_NOTICE_SUBJECT)).toContain(newEmail);
    const verifyToken = linkToken(await mailTo(newEmail, EMAIL_CHANGE_VERIFICATION_SUBJECT));
    // Until the link is opened, the old address is the account's.
    expect((await login(body.email, body.password)).statusCode).toBe(200);
    expect((await login(newEmail, body.password)).statusCode).toBe(401);

    expect((await call('POST', '/api/auth/verify-email', undefined, { token: verifyToken })).statusCode).toBe(200);
    expect((await call('GET', '/api/me', token)).json()).toMatchObject({ email: newEmail, pendingEmail: null, isEmailVerified: true });
    expect((await login(newEmail, body.password)).statusCode).toBe(200);
    expect((await login(body.email, body.password)).statusCode).toBe(401);
    const updates = (await auth.events()).filter((e) => e.type === 'user.updated.v1' && e.data.email === newEmail);
    expect(updates).toHaveLength(1);
  });

  it('refuses the link when someone else took the address meanwhile', async () => {
    const { body, token } = await auth.register();
    const newEmail = `contested-${randomUUID().slice(0, 8)}@example.com`;
    expect((await call('PUT', '/api/me/email', token, { currentPassword: body.password, newEmail })).statusCode).toBe(200);
    const verifyToken = linkToken(await mailTo(newEmail, EMAIL_CHANGE_VERIFICATION_SUBJECT));
    await auth.register({ email: newEmail });
    const late = await call('POST', '/api/auth/verify-email', undefined, { token: verifyToken });
    expect(late.statusCode).toBe(409);
    expect((await call('GET', '/api/me', token)).json().email).toBe(body.email);
  });
});

describe('delete the account', () => {
  it('asks for the password and the typed confirmation, and the account stops working at once', async () => {
    const { body, token, userId } = await auth.register();
    expect((await call('DELETE', '/api/me', token, { password: body.password })).json().field).toBe('confirm');
    expect((await call('DELETE', '/api/me', token, { password: 'wrong-password', confirm: 'DELETE' })).json()).toMatchObject({
      field: 'password',
      message: 'Password is incorrect',
    });
    expect((await call('DELETE', '/api/me', token, { password: body.password, confirm: 'delete' })).statusCode).toBe(400);
    const other = (await auth.register()).userId;

    const gone = await call('DELETE', '/api/me', token, { password: body.password, confirm: 'DELETE' });
    expect(gone.statusCode).toBe(200);
    expect((await call('GET', '/api/me', token)).statusCode).toBe(401);
    expect((await login(body.email, body.password)).statusCode).toBe(401);
    expect(await auth.prisma.user.findUnique({ where: { id: userId } })).toBeNull();
    expect(await auth.prisma.mailJob.count({ where: { recipient: body.email } })).toBe(0);
    expect(await auth.prisma.erasure.findUnique({ where: { userId } })).toMatchObject({ email: body.email, completeAt: null });
    await auth.relay.drain();
    expect((await readEvents(auth.bus, 'USERS', 'user.deleted.v1')).filter((e) => e.data.userId === userId)).toHaveLength(1);
    // The address is free again.
    expect((await auth.register({ email: body.email })).userId).not.toBe(other);
  });

  it('once every service reported both passes, Redis and the erasure record forget the person, and the purger empties the streams of them', async () => {
    const { body, token, userId } = await auth.register();
    const kept = await auth.register();
    // Every window auth counts that names a person, for both: a failed login, a resend, an e-mail change (the mail from
    // them and the mail to the new address), and the deletion's own password check (reauth, below).
    const windows = async (person: { body: { email: string; password: string }; token: string }) => {
      expect((await login(person.body.email, 'wrong-password')).statusCode).toBe(401);
      expect((await call('POST', '/api/auth/resend-verification', person.token, {})).statusCode).toBe(200);
      const newEmail = `moved-${randomUUID().slice(0, 8)}@example.com`;
      expect((await call('PUT', '/api/me/email', person.token, { currentPassword: person.body.password, newEmail })).statusCode).toBe(200);
      return newEmail;
    };
    const [movedTo, keptMovedTo] = [await windows({ body, token }), await windows(kept)];
    // Each under its limiter's prefix (the 15-minute one, the minute's and the day's); what is not there is no window.
    const limitKeysIn = async (userId: string, email: string, also: string[] = []) => {
      const ns = auth.config.BUS_NAMESPACE;
      const keys = [...personLimitKeys(userId, email), ...also].flatMap((key) =>
        ['auth-limit', 'auth-limit-minute', 'auth-limit-day'].map((prefix) => `${ns}:${prefix}:${key}`),
      );
      const found = await Promise.all(keys.map(async (key) => ((await auth.redis.exists(key)) === 1 ? key.slice(ns.length + 1) : null)));
      return found.filter((key) => key !== null).map((key) => key.replace(userId, '<id>'));
    };
    expect((await call('DELETE', '/api/me', token, { password: body.password, confirm: 'DELETE' })).statusCode).toBe(200);
    await auth.relay.drain();
    const names = async () => {
      const texts = (await readEvents(auth.bus, 'USERS')).map((e) => JSON.stringify(e));
      return texts.filter((t) => t.includes(userId) || t.includes(body.email)).length;
    };
    expect(await names()).toBeGreaterThanOrEqual(2); // registered, deleted

    // All services but one report: nothing is scrubbed yet.
    const report = (service: string, id = randomUUID()) =>
      auth.bus.publish(
        subjectFor(auth.config.BUS_NAMESPACE, 'user.erased.v1'),
        JSON.stringify({ id, type: 'user.erased.v1', occurredAt: new Date().toISOString(), data: { userId, service } }),
        id,
      );
    const [last, ...rest] = ERASING_SERVICES;
    for (const service of rest) await report(service);
    await report(rest[0] ?? ''); // a redelivered report counts once
    await eventually(async () => (await auth.prisma.erasure.findUnique({ where: { userId } }))?.reported.length === rest.length, 'reports recorded');
    expect((await auth.prisma.erasure.findUnique({ where: { userId } }))?.completeAt).toBeNull();

    await report(last ?? '');
    // The first pass is in (issue 38): after the grace auth sends the deletion again, and only the second pass's reports complete it.
    await eventually(async () => (await auth.prisma.erasure.findUnique({ where: { userId } }))?.resweepAt != null, 'the second pass sent', 30_000);
    const between = await auth.prisma.erasure.findUnique({ where: { userId } });
    expect(between).toMatchObject({ reported: [], completeAt: null });
    expect(between?.firstPassAt).toBeInstanceOf(Date);
    await auth.relay.drain();
    expect((await readEvents(auth.bus, 'USERS', 'user.deleted.v1')).filter((e) => e.data.userId === userId)).toHaveLength(2);
    expect(await names()).toBeGreaterThanOrEqual(3); // registered, deleted twice
    for (const service of ERASING_SERVICES) await report(service);
    await eventually(async () => (await auth.prisma.erasure.findUnique({ where: { userId } })) === null, 'the erasure finished', 30_000);
    // The record's last transaction queued the messages; the purger deletes them after its commit, once
    // every consumer has them: nothing in the queue names the person (stream, sequence and subject only).
    const queued = async () => (await auth.prisma.$queryRawUnsafe<Array<{ n: number }>>('SELECT count(*)::int AS n FROM "stream_purges"'))[0]?.n;
    await eventually(async () => (await names()) === 0 && (await queued()) === 0, 'the streams forgot the person', 30_000);
    // The deletion's password check counted under reauth; the windows are gone by name, the other person's stay.
    expect(await limitKeysIn(userId, body.email)).toEqual([]);
    // Not the window of the address they asked to move to: it protects that address's owner (an erasure must not
    // reset it), is counted by address alone and holds its hash.
    expect(await limitKeysIn(userId, body.email, [limitKeys.mailTo(movedTo)])).toEqual([`auth-limit-day:mail-to:${emailKey(movedTo)}`]);
    expect((await limitKeysIn(kept.userId, kept.body.email, [limitKeys.mailTo(keptMovedTo)])).sort()).toEqual(
      [
        'auth-limit:reauth:<id>',
        `auth-limit:login-failed:${emailKey(kept.body.email)}`,
        'auth-limit-minute:resend-verification:<id>',
        'auth-limit-day:resend-verification:<id>',
        'auth-limit-minute:mail-from:<id>',
        'auth-limit-day:mail-from:<id>',
        `auth-limit-day:mail-to:${emailKey(kept.body.email)}`, // the resend's mail
        `auth-limit-day:mail-to:${emailKey(keptMovedTo)}`,
      ].sort(),
    );
    const outbox = await auth.prisma.$queryRawUnsafe<Array<{ n: number }>>(
      `SELECT count(*)::int AS n FROM "outbox" WHERE strpos("payload"::text, $1) > 0 OR strpos("payload"::text, $2) > 0`,
      userId,
      body.email,
    );
    expect(outbox[0]?.n).toBe(0);
    // The other person's events stay.
    expect((await readEvents(auth.bus, 'USERS', 'user.registered.v1')).some((e) => e.data.id === kept.userId)).toBe(true);
  });
});
