import type { EventEnvelope } from '@hoptrack/proto';
import { createMetrics, deleteStreams } from '@hoptrack/runtime';
import { memoryLogger, readEvents as readStream, testClock, testDatabaseUrl, testNamespace, truncate } from '@hoptrack/testing';
import type { RegisterRequest } from '@hoptrack/proto';
import { buildAuthApp, type AuthApp } from '../src/app';
import type { Mailer } from '../src/domain/mailer';
import { authConfigSchema, type AuthConfig } from '../src/config';
import { openConnections, type AuthConnections } from '../src/connections';

export const databaseUrl = testDatabaseUrl('auth');

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
    ...extra,
  };
}

export interface TestAuth extends AuthApp, AuthConnections {
  config: AuthConfig;
  clock: ReturnType<typeof testClock>;
  logs: ReturnType<typeof memoryLogger>['lines'];
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

/** The auth app wired to the real Postgres, Redis and NATS, in a fresh bus namespace, tables emptied. */
export async function startTestAuth(extra: Record<string, string> = {}, options: { mailer?: Mailer } = {}): Promise<TestAuth> {
  const namespace = testNamespace('auth');
  const config = authConfigSchema.parse(testEnv(namespace, extra));
  const { logger, lines } = memoryLogger('auth');
  const connections = await openConnections(config, logger);
  await truncate(databaseUrl, ['users', 'outbox', 'mail_jobs', 'password_resets', 'erasures', 'exports']);
  const clock = testClock();
  const built = await buildAuthApp({ config, logger, metrics: createMetrics('auth'), clock: clock.now, mailer: options.mailer, ...connections });
  const mailing = built.mail.start();
  await built.app.ready();
  return {
    ...built,
    ...connections,
    config,
    clock,
    logs: lines,
    async register(overrides = {}) {
      const body = uniqueUser(overrides);
      const res = await built.app.inject({ method: 'POST', url: '/api/auth/register', payload: body });
      if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
      const json = res.json<{ token: string; user: { id: string } }>();
      return { token: json.token, userId: json.user.id, body };
    },
    async events() {
      await built.relay.drain();
      return readStream(connections.bus, 'USERS', 'user.registered.v1', 'user.updated.v1');
    },
    async close() {
      await mailing.stop();
      await built.relay.stop();
      await built.app.close();
      await deleteStreams(connections.bus);
      await connections.close();
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
