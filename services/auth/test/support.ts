import type { EventEnvelope, RegisterRequest } from '@hoptrack/proto';
import { readEvents as readStream, startService, testClock, testDatabaseUrl, truncate } from '@hoptrack/testing';
import type { AuthApp } from '../src/app';
import type { AuthConfig } from '../src/config';
import type { AuthConnections } from '../src/connections';
import type { Mailer } from '../src/domain/mailer';
import { authService, buildAuth } from '../src/service';

export const databaseUrl = testDatabaseUrl('auth');

/** Tests register many people from one address; the registration limit is tested through the gateway (infra/security/auth-abuse.test.ts). */
const MANY_REGISTRATIONS = { REGISTER_RATE_LIMIT_MAX: '1000000' };

/** Environment of an auth process under test (also used to spawn real processes). */
export function testEnv(namespace: string, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: databaseUrl,
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    BUS_NAMESPACE: namespace,
    PUBLIC_WEB_URL: 'http://web.test',
    OUTBOX_POLL_MS: '100',
    ...MANY_REGISTRATIONS,
    ...extra,
  };
}

export interface TestAuth extends AuthApp, AuthConnections {
  config: AuthConfig;
  clock: ReturnType<typeof testClock>;
  /** Every line the service logged, parsed. */
  logs: Array<Record<string, unknown>>;
  register(overrides?: Partial<RegisterRequest>): Promise<{ token: string; userId: string; body: RegisterRequest }>;
  /** Publishes what is pending and returns every event in the USERS stream. */
  events(): Promise<Array<EventEnvelope<'user.registered.v1' | 'user.updated.v1'>>>;
  close(): Promise<void>;
}

let counter = 0;
export function uniqueUser(overrides: Partial<RegisterRequest> = {}): RegisterRequest {
  counter += 1;
  const tag = `${Date.now().toString(36)}${counter}`;
  return { email: `user${tag}@example.com`, username: `user_${tag}`, displayName: `User ${counter}`, password: 'hoppy-secret', ...overrides };
}

export type AuthConsumer = keyof NonNullable<typeof authService.consumers>;

/**
 * The auth service from its definition (the one production runs) on the real
 * Postgres, Redis and NATS, in a fresh bus namespace, tables emptied, on a
 * test clock, with the outbox relay and the consumers named running (the mail
 * relay's by default). A test's mailer replaces SMTP in the build.
 */
export async function startTestAuth(
  extra: Record<string, string> = {},
  options: { mailer?: Mailer; consumers?: readonly AuthConsumer[] } = {},
): Promise<TestAuth> {
  const { mailer } = options;
  const clock = testClock();
  const auth = await startService(mailer ? { ...authService, build: (context) => buildAuth(context, mailer) } : authService, {
    env: { DATABASE_URL: databaseUrl, PUBLIC_WEB_URL: 'http://web.test', ...MANY_REGISTRATIONS, ...extra },
    clock: clock.now,
    consumers: options.consumers ?? ['mail'],
    async prepare() {
      await truncate(databaseUrl, ['users', 'devices', 'outbox', 'mail_jobs', 'password_resets', 'erasures', 'exports']);
    },
  });
  const { parts, connections } = auth;
  // Tests drain the relay to see what was published; OUTBOX_RELAY=off is for separate processes (events.test.ts).
  const { relay } = parts;
  if (!relay) throw new Error('auth under test runs its outbox relay: leave OUTBOX_RELAY on');
  return {
    ...parts,
    relay,
    ...connections,
    config: auth.config,
    clock,
    logs: auth.logs,
    async register(overrides = {}) {
      const body = uniqueUser(overrides);
      const res = await parts.app.inject({ method: 'POST', url: '/api/auth/register', payload: body });
      if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
      const json = res.json<{ token: string; user: { id: string } }>();
      return { token: json.token, userId: json.user.id, body };
    },
    async events() {
      await relay.drain();
      return readStream(connections.bus, 'USERS', 'user.registered.v1', 'user.updated.v1');
    },
    close: () => auth.close(),
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
