import { EXPORT_COOLDOWN_MS, EXPORT_MESSAGES, EXPORT_READY_SUBJECT, exportPart, type DataExport } from '@hoptrack/proto';
import { exportPartName, exportParts, FileSignature } from '@hoptrack/runtime';
import { eventually, publishEvent, readEvents } from '@hoptrack/testing';
import { startMailCatcher, type MailCatcher } from '@hoptrack/testing/mail';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestAuth, type TestAuth } from './support';

/**
 * Data exports at the auth service (issue 24, item 3): the request, auth's
 * own part in the exports object store, media's ready report (faked here:
 * media's assembly has its own test), the mail, and the download link's
 * rules. The whole flow through every service is the browser test's.
 */
let auth: TestAuth;
let catcher: MailCatcher;
beforeAll(async () => {
  catcher = await startMailCatcher();
  // The definition's own export consumers (auth's part, media's ready reports), beside the mail relay.
  auth = await startTestAuth({ SMTP_URL: catcher.smtpUrl }, { consumers: ['mail', 'export', 'exportReady'] });
});
afterAll(async () => {
  await auth?.close();
  await catcher?.close();
});

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
  auth.app.inject({ method, url, ...(payload ? { payload } : {}), headers: bearer(token) });
const exportsOf = async (token: string) => (await call('GET', '/api/me/exports', token)).json<DataExport[]>();

describe('data export', () => {
  it('starts once, contributes auth’s part, becomes ready on media’s report, mails, and hands out a signed link that expires with it', async () => {
    const { body, token, userId } = await auth.register();
    const other = await auth.register();

    const started = await call('POST', '/api/me/export', token);
    expect(started.statusCode).toBe(202);
    const first = started.json<DataExport>();
    expect(first).toMatchObject({ status: 'pending', readyAt: null, expiresAt: null, size: null });
    // Asking again while it is prepared answers the same one.
    const again = await call('POST', '/api/me/export', token);
    expect(again.statusCode).toBe(200);
    expect(again.json<DataExport>().id).toBe(first.id);
    await auth.relay.drain();
    const requested = (await readEvents(auth.bus, 'USERS', 'user.export.requested.v1')).filter((e) => e.data.userId === userId);
    expect(requested.map((e) => e.data.exportId)).toEqual([first.id]);

    // Auth's own part: the profile and the privacy switches, nothing of anyone else.
    const store = await exportParts(auth.bus);
    let text = '';
    await eventually(async () => {
      const blob = await store.getBlob(exportPartName(first.id, 'auth'));
      text = blob ? new TextDecoder().decode(blob) : '';
      return text.length > 0;
    }, 'auth contributed its part');
    const part = exportPart.parse(JSON.parse(text));
    expect(part).toMatchObject({ service: 'auth', data: { profile: { id: userId, email: body.email, username: body.username }, privacy: { isProfilePrivate: false } } });
    expect(text).not.toContain(other.userId);
    expect(JSON.stringify(part)).not.toContain('password');

    expect((await call('GET', `/api/me/export/${first.id}`, token)).statusCode).toBe(409);
    const key = `exports/${userId}/${first.id}.zip`;
    await publishEvent(auth.bus, 'user.export.ready.v1', { exportId: first.id, userId, key, size: 1234 });
    await eventually(async () => (await exportsOf(token))[0]?.status === 'ready', 'the export is ready');
    const [ready] = await exportsOf(token);
    expect(ready).toMatchObject({ id: first.id, size: 1234 });
    expect(Date.parse(ready?.expiresAt ?? '') - Date.parse(ready?.readyAt ?? '')).toBe(48 * 3600_000);
    // A redelivered report changes nothing and mails nothing more.
    await publishEvent(auth.bus, 'user.export.ready.v1', { exportId: first.id, userId, key, size: 1234 });
    await auth.mail.drain();
    await eventually(async () => catcher.messages.filter((m) => m.to.includes(body.email) && m.subject === EXPORT_READY_SUBJECT).length === 1, 'the ready mail');
    expect(catcher.messages.find((m) => m.subject === EXPORT_READY_SUBJECT)?.text).toContain('http://web.test/account');

    const download = await call('GET', `/api/me/export/${first.id}`, token);
    expect(download.statusCode).toBe(302);
    const location = new URL(download.headers.location ?? '', 'http://x');
    expect(location.pathname).toBe(`/api/media/files/${key}`);
    // The link is media's to check: signed for this person and this key.
    const files = new FileSignature(auth.config.FILE_URL_SECRET, 600);
    expect(files.verify(key, Object.fromEntries(location.searchParams))).toBe(userId);
    expect(files.verify(`exports/${other.userId}/${first.id}.zip`, Object.fromEntries(location.searchParams))).toBeNull();

    // Someone else's export, and an unknown one, are not found; a malformed id is a 400.
    expect((await call('GET', `/api/me/export/${first.id}`, other.token)).statusCode).toBe(404);
    expect((await call('GET', `/api/me/export/${crypto.randomUUID()}`, token)).statusCode).toBe(404);
    expect((await call('GET', '/api/me/export/not-an-id', token)).json().field).toBe('id');
    expect(await exportsOf(other.token)).toEqual([]);

    // One a day (issue 39, finding 9): asking again answers 429 with when, and starts nothing.
    const tooSoon = await call('POST', '/api/me/export', token);
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json().message).toBe(EXPORT_MESSAGES.cooldown);
    expect(Number(tooSoon.headers['retry-after'])).toBeGreaterThan(EXPORT_COOLDOWN_MS / 1000 - 60);
    expect(Number(tooSoon.headers['retry-after'])).toBeLessThanOrEqual(EXPORT_COOLDOWN_MS / 1000);
    expect(await exportsOf(token)).toHaveLength(1);

    // A day on, a new one may be asked for; its zip replaces the first one's, which expires at once.
    auth.clock.advance(EXPORT_COOLDOWN_MS + 1000);
    const secondStart = await call('POST', '/api/me/export', token);
    expect(secondStart.statusCode).toBe(202);
    const second = secondStart.json<DataExport>();
    const until = new Date(auth.clock.now().getTime() + 48 * 3600_000).toISOString();
    await publishEvent(auth.bus, 'user.export.ready.v1', { exportId: second.id, userId, key: `exports/${userId}/${second.id}.zip`, size: 99, expiresAt: until });
    await eventually(async () => (await exportsOf(token))[0]?.status === 'ready', 'the second export is ready');
    const [newest, replaced] = await exportsOf(token);
    expect(newest).toMatchObject({ id: second.id, status: 'ready', expiresAt: until });
    expect(replaced).toMatchObject({ id: first.id, status: 'expired' });
    expect((await call('GET', `/api/me/export/${first.id}`, token)).statusCode).toBe(410);

    // Past its lifetime (the one media said): expired, and the download says so.
    auth.clock.advance(48 * 3600_000 + 1000);
    expect((await exportsOf(token))[0]?.status).toBe('expired');
    expect((await call('GET', `/api/me/export/${second.id}`, token)).statusCode).toBe(410);
    expect((await call('POST', '/api/me/export', token)).statusCode).toBe(202);
    expect(await exportsOf(token)).toHaveLength(3);

    // Deleting the account takes its exports' records.
    expect((await call('DELETE', '/api/me', token, { password: body.password, confirm: 'DELETE' })).statusCode).toBe(200);
    expect(await auth.prisma.dataExport.count({ where: { userId } })).toBe(0);
  });
});
