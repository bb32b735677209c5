import { connectBus, deleteStreams, ensureStreams, type Bus } from '@hoptrack/runtime';
import { memoryLogger, readEvents, testNamespace } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startProcess } from '@hoptrack/testing/processes';
import { bearer, startTestAuth, testEnv, uniqueUser, type TestAuth } from './support';

describe('user events through the outbox', () => {
  let auth: TestAuth;
  beforeAll(async () => {
    auth = await startTestAuth();
  });
  afterAll(() => auth.close());

  it('publishes user.registered.v1 once, with the public profile and privacy switches', async () => {
    const { userId, body } = await auth.register();
    const events = (await auth.events()).filter((e) => e.data.id === userId);
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event?.type).toBe('user.registered.v1');
    expect(event?.data).toMatchObject({
      email: body.email,
      username: body.username,
      displayName: body.displayName,
      isProfilePrivate: false,
      allowDirectMessages: true,
      showOnlineStatus: true,
      tokenVersion: 0,
    });
    expect(event?.data).not.toHaveProperty('password');
    expect(event?.requestId).toBeTruthy();
  });

  it('publishes user.updated.v1 once per change and none for a no-op', async () => {
    const { userId, token } = await auth.register();
    const put = (payload: object) => auth.app.inject({ method: 'PUT', url: '/api/privacy', headers: bearer(token), payload });
    await put({ isProfilePrivate: true });
    await put({ isProfilePrivate: true }); // no change
    await put({ allowDirectMessages: false });
    await auth.app.inject({ method: 'PATCH', url: '/api/me', headers: bearer(token), payload: { bio: 'Stouts only' } });
    const updates = (await auth.events()).filter((e) => e.data.id === userId && e.type === 'user.updated.v1');
    expect(updates.map((e) => [e.data.isProfilePrivate, e.data.allowDirectMessages, e.data.bio])).toEqual([
      [true, true, null],
      [true, false, null],
      [true, false, 'Stouts only'],
    ]);
  });

  it('does not publish for a rejected change', async () => {
    const before = (await auth.events()).length;
    const { body } = await auth.register();
    // A taken username is refused (409); a taken address is not refused, so it is no rejected change (docs/decisions.md, issue 40 item 14).
    const refused = await auth.app.inject({ method: 'POST', url: '/api/auth/register', payload: uniqueUser({ username: body.username }) });
    expect(refused.statusCode).toBe(409);
    expect((await auth.events()).length).toBe(before + 1);
  });

  it('announces a password reset with the new token version', async () => {
    const { userId, body } = await auth.register();
    const forgot = await auth.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: body.email } });
    await auth.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token: forgot.json().token, newPassword: 'a-new-secret' } });
    const updates = (await auth.events()).filter((e) => e.data.id === userId && e.type === 'user.updated.v1');
    expect(updates).toHaveLength(1);
    expect(updates[0]?.data.tokenVersion).toBe(1);
  });

  it('drops a re-publish of the same event (crash after publish, before marking it sent)', async () => {
    const { userId } = await auth.register();
    await auth.events();
    await auth.prisma.$executeRaw`UPDATE "outbox" SET "published_at" = NULL`;
    await auth.relay.drain();
    const events = (await readEvents(auth.bus, 'USERS', 'user.registered.v1', 'user.updated.v1')).filter((e) => e.data.id === userId);
    expect(events).toHaveLength(1);
  });
});

describe('a process killed between commit and publish', () => {
  const namespace = testNamespace('crash');
  let bus: Bus;
  beforeAll(async () => {
    bus = await connectBus({ url: 'nats://127.0.0.1:4222', name: 'crash-test', namespace, logger: memoryLogger('test').logger });
    await ensureStreams(bus, ['USERS']);
  });
  afterAll(async () => {
    await deleteStreams(bus);
    await bus.close();
  });

  it('publishes the event exactly once after a restart', async () => {
    // First life: the relay is off, so the commit happens and the publish never does; then SIGKILL.
    const first = await startProcess({
      name: 'auth-1',
      entry: 'services/auth/src/server.ts',
      port: await freePort(),
      env: testEnv(namespace, { OUTBOX_RELAY: 'off' }),
    });
    const user = uniqueUser();
    const res = await fetch(`${first.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(user),
    });
    expect(res.status).toBe(201);
    await first.stop('SIGKILL');
    expect((await readEvents(bus, 'USERS', 'user.registered.v1', 'user.updated.v1')).filter((e) => e.data.email === user.email)).toHaveLength(0);

    // Second life: the relay finds the committed row and publishes it.
    const second = await startProcess({ name: 'auth-2', entry: 'services/auth/src/server.ts', port: await freePort(), env: testEnv(namespace) });
    try {
      let events = await readEvents(bus, 'USERS', 'user.registered.v1', 'user.updated.v1');
      for (let i = 0; i < 50 && !events.some((e) => e.data.email === user.email); i++) {
        await new Promise((r) => setTimeout(r, 100));
        events = await readEvents(bus, 'USERS', 'user.registered.v1', 'user.updated.v1');
      }
      expect(events.filter((e) => e.data.email === user.email && e.type === 'user.registered.v1')).toHaveLength(1);
    } finally {
      await second.stop();
    }
  });
});
