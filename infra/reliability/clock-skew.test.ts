import type { EventEnvelope } from '@hoptrack/proto';
import { readEvents, startService, testDatabaseUrl, testNamespace, truncate } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authService } from '../../services/auth/src/service';
import { socialGraphService } from '../../services/social-graph/src/service';

/**
 * Issue 38, item 1: versions, not clocks. Two auth replicas share the
 * database and the bus; one runs ten minutes behind. A password change
 * handled by the slow replica, after a profile change handled by the fast
 * one, carries an older updated_at but a higher version: the social graph
 * (any service's people table and cache) applies it, and the old token is
 * refused there.
 *
 * The negative control is the precondition checked on the events: the slow
 * replica's snapshot is older by the clock than the one before it, so the
 * rule this replaces (`updated_at <= EXCLUDED.updated_at`) would have
 * dropped it and the old token would still work.
 */
const namespace = testNamespace('skew');
const authDb = testDatabaseUrl('auth_skew');
const socialDb = testDatabaseUrl('social_graph_skew');
const SKEW_MS = 10 * 60_000;

let fast: Awaited<ReturnType<typeof startAuth>>;
let slow: Awaited<ReturnType<typeof startAuth>>;
let social: Awaited<ReturnType<typeof startSocial>>;

const authEnv = { DATABASE_URL: authDb, BUS_NAMESPACE: namespace, PUBLIC_WEB_URL: 'http://web.test' };
const startAuth = (clock: () => Date, first: boolean) =>
  startService(authService, {
    env: authEnv,
    clock,
    consumers: 'none',
    deleteStreams: first,
    ...(first ? { prepare: () => truncate(authDb, ['users', 'outbox', 'mail_jobs', 'password_resets', 'erasures', 'exports']) } : {}),
  });
const startSocial = () =>
  startService(socialGraphService, {
    env: { DATABASE_URL: socialDb, BUS_NAMESPACE: namespace, READ_MODEL_CONSUMER: `rm-${namespace}`, SESSIONS_CONSUMER: `sessions-${namespace}` },
    consumers: ['users'],
    deleteStreams: false,
    prepare: () => truncate(socialDb, ['users', 'friendships', 'blocked_users', 'session_facts', 'outbox', 'processed_events']),
  });

beforeAll(async () => {
  fast = await startAuth(() => new Date(), true);
  slow = await startAuth(() => new Date(Date.now() - SKEW_MS), false);
  social = await startSocial();
});
afterAll(async () => {
  await social?.close();
  await slow?.close();
  await fast?.close();
});

interface Injectable {
  parts: { app: { inject(options: object): Promise<{ statusCode: number; body: string; json<T>(): T }> } };
}
const inject = (service: Injectable, method: 'GET' | 'PATCH' | 'PUT' | 'POST', url: string, token?: string, payload?: object) =>
  service.parts.app.inject({ method, url, ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}), ...(payload ? { payload } : {}) });

describe('snapshots ordered by version across auth replicas whose clocks disagree', () => {
  it('a password change on the replica ten minutes behind revokes the old token in the other services', async () => {
    const tag = Date.now().toString(36);
    const body = { email: `skew${tag}@example.com`, username: `skew_${tag}`, displayName: 'Skew', password: 'hoppy-secret' };
    const registered = await inject(fast, 'POST', '/api/auth/register', undefined, body);
    expect(registered.statusCode, registered.body).toBe(201);
    const { token: oldToken, user } = registered.json<{ token: string; user: { id: string } }>();
    // The social graph has heard of the person: the token works there.
    await expect.poll(async () => (await inject(social, 'GET', `/api/users/${user.id}`, oldToken)).statusCode).toBe(200);

    // The fast replica changes the display name; then the slow one changes the password.
    const renamed = await inject(fast, 'PATCH', '/api/me', oldToken, { displayName: 'Renamed on the fast replica' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const changed = await inject(slow, 'PUT', '/api/me/password', oldToken, { currentPassword: body.password, newPassword: 'another-hoppy-secret' });
    expect(changed.statusCode, changed.body).toBe(200);
    const newToken = changed.json<{ token: string }>().token;

    // The precondition (the negative control): by the clock, the reset is the older snapshot.
    await fast.parts.relay?.drain();
    await slow.parts.relay?.drain();
    const mine = (await readEvents(social.connections.bus, 'USERS', 'user.updated.v1')).filter((e) => e.data.id === user.id) as Array<EventEnvelope<'user.updated.v1'>>;
    const rename = mine.find((e) => e.data.displayName === 'Renamed on the fast replica' && e.data.tokenVersion === 0);
    const reset = mine.find((e) => e.data.tokenVersion === 1);
    if (!rename || !reset) throw new Error(`both snapshots on the stream: ${JSON.stringify(mine.map((e) => e.data))}`);
    expect(Date.parse(reset.data.updatedAt)).toBeLessThan(Date.parse(rename.data.updatedAt) - SKEW_MS / 2);
    expect(reset.data.version).toBeGreaterThan(rename.data.version ?? Infinity);

    // The social graph applied the reset: the old token is refused, the new one works, and both changes are kept.
    await expect.poll(async () => (await inject(social, 'GET', `/api/users/${user.id}`, oldToken)).statusCode).toBe(401);
    const seen = await inject(social, 'GET', `/api/users/${user.id}`, newToken);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json<{ displayName: string }>().displayName).toBe('Renamed on the fast replica');
  });
});
