import { PASSWORD_CHANGED_SIGN_IN_AGAIN, SIGNED_OUT_ON_ANOTHER_DEVICE, type Device } from '@hoptrack/proto';
import { readEvents } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceName, networkOf, placeOf } from '../src/domain/devices';
import { bearer, startTestAuth, type TestAuth } from './support';

/**
 * Issue 40, "Your devices": each sign-in is a device, listed at
 * GET /api/me/devices (the asking one marked `current`) and signed out by
 * DELETE /api/me/devices/:id, which announces user.device.revoked.v1 and
 * refuses that device's tokens at auth at once. The other services' refusal
 * is the revocation scan's (infra/security/revocation.test.ts).
 */
let auth: TestAuth;
beforeAll(async () => {
  auth = await startTestAuth();
});
afterAll(() => auth?.close());

const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const call = (method: 'GET' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) =>
  auth.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
async function login(email: string, password: string, userAgent: string, remoteAddress: string): Promise<string> {
  const res = await auth.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, headers: { 'user-agent': userAgent }, remoteAddress });
  expect(res.statusCode).toBe(200);
  return res.json<{ token: string }>().token;
}
const devicesOf = async (token: string) => {
  const res = await call('GET', '/api/me/devices', token);
  expect(res.statusCode).toBe(200);
  return res.json<Device[]>();
};

describe('your devices', () => {
  it('lists each sign-in with its device, network and last use, the asking one marked', async () => {
    const { body, token: first } = await auth.register();
    const phone = await login(body.email, body.password, SAFARI_IPHONE, '203.0.113.77');
    const laptop = await login(body.email, body.password, CHROME_LINUX, '198.51.100.9');

    const listed = await devicesOf(laptop);
    expect(listed).toHaveLength(3);
    expect(listed.filter((d) => d.current).map((d) => d.device)).toEqual(['Chrome on Linux']);
    expect(listed.find((d) => d.device === 'Safari on iOS')).toMatchObject({ place: 'Network 203.0.113.0/24', current: false });
    for (const device of listed) {
      expect(Date.parse(device.signedInAt)).not.toBeNaN();
      expect(Date.parse(device.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(device.signedInAt));
    }
    // The same list from the phone marks the phone.
    expect((await devicesOf(phone)).filter((d) => d.current).map((d) => d.device)).toEqual(['Safari on iOS']);
    expect((await devicesOf(first)).filter((d) => d.current)).toHaveLength(1);
  });

  it("signs one device out at once: its token is refused, the others' are not, and the event says until when", async () => {
    const { body, userId, token: first } = await auth.register();
    const phone = await login(body.email, body.password, SAFARI_IPHONE, '203.0.113.77');
    const phoneId = (await devicesOf(phone)).find((d) => d.current)?.id ?? '';

    const res = await call('DELETE', `/api/me/devices/${phoneId}`, first);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Signed out.' });
    const refused = await call('GET', '/api/me', phone);
    expect(refused.statusCode).toBe(401);
    // The reason, which the app's sign-in screen shows (item 15).
    expect(refused.json().message).toBe(SIGNED_OUT_ON_ANOTHER_DEVICE);
    expect((await call('GET', '/api/me', first)).statusCode).toBe(200);
    expect((await devicesOf(first)).map((d) => d.id)).not.toContain(phoneId);
    // Twice: the device is gone.
    expect((await call('DELETE', `/api/me/devices/${phoneId}`, first)).statusCode).toBe(404);

    await auth.relay.drain();
    const revoked = (await readEvents(auth.bus, 'USERS', 'user.device.revoked.v1')).filter((e) => e.data.deviceId === phoneId);
    expect(revoked).toHaveLength(1);
    expect(revoked[0]?.data.userId).toBe(userId);
    expect(Date.parse(revoked[0]?.data.expiresAt ?? '')).toBeGreaterThan(auth.clock.now().getTime());

    // Signing this device out is how the app signs out.
    const firstId = (await devicesOf(first)).find((d) => d.current)?.id ?? '';
    expect((await call('DELETE', `/api/me/devices/${firstId}`, first)).statusCode).toBe(200);
    expect((await call('GET', '/api/me', first)).statusCode).toBe(401);
  });

  it("answers 404 for someone else's device and an unknown one, 400 naming the field for a bad id, 401 without a token", async () => {
    const a = await auth.register();
    const b = await auth.register();
    const bDevice = (await devicesOf(b.token))[0]?.id ?? '';
    const theirs = await call('DELETE', `/api/me/devices/${bDevice}`, a.token);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ message: 'Device not found' });
    expect((await call('GET', '/api/me', b.token)).statusCode).toBe(200);
    expect((await call('DELETE', '/api/me/devices/6d3c2f4e-0000-4000-8000-000000000000', a.token)).statusCode).toBe(404);
    const bad = await call('DELETE', '/api/me/devices/not-a-device', a.token);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'id' });
    expect((await auth.app.inject({ method: 'GET', url: '/api/me/devices' })).statusCode).toBe(401);
    // Nobody else's devices are listed to A.
    expect((await devicesOf(a.token)).map((d) => d.id)).not.toContain(bDevice);
  });

  it('a password change keeps this device and signs out the others; a reset signs out all', async () => {
    const { body, token: first } = await auth.register();
    await login(body.email, body.password, SAFARI_IPHONE, '203.0.113.77');
    const firstId = (await devicesOf(first)).find((d) => d.current)?.id;
    const changed = await call('PUT', '/api/me/password', first, { currentPassword: body.password, newPassword: 'brand-new-secret' });
    expect(changed.statusCode).toBe(200);
    const renewed = changed.json<{ token: string }>().token;
    expect((await call('GET', '/api/me', first)).json().message).toBe(PASSWORD_CHANGED_SIGN_IN_AGAIN);
    expect((await devicesOf(renewed)).map((d) => ({ id: d.id, current: d.current }))).toEqual([{ id: firstId, current: true }]);

    const asked = await auth.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: body.email } });
    await auth.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token: asked.json<{ token: string }>().token, newPassword: 'another-new-secret' } });
    const again = await login(body.email, 'another-new-secret', CHROME_LINUX, '198.51.100.9');
    expect((await devicesOf(again)).map((d) => d.device)).toEqual(['Chrome on Linux']);
  });

  it('names devices and places without keeping whole addresses', () => {
    expect(deviceName(CHROME_LINUX)).toBe('Chrome on Linux');
    expect(deviceName(SAFARI_IPHONE)).toBe('Safari on iOS');
    expect(deviceName('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0')).toBe('Firefox on Windows');
    expect(deviceName('curl/8.5.0')).toBe('curl');
    expect(deviceName('')).toBe('Unknown device');
    expect(networkOf('::ffff:203.0.113.77')).toBe('203.0.113.0/24');
    expect(networkOf('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe('2001:db8:85a3::/48');
    expect(placeOf(networkOf('127.0.0.1'))).toBe('This computer (local network)');
  });
});
