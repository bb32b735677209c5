import { DEV_JWT_SECRET } from '@hoptrack/runtime';
import { eventually, testNamespace } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from '@hoptrack/testing/gateway';
import { freePort, startProcess, type RunningProcess } from '@hoptrack/testing/processes';
import { privatePostgres, type PrivateServer } from '@hoptrack/testing/servers';

/**
 * Issue 9, item 7: Postgres killed (-9) under a running service. While it is
 * down the service says so — 503 on /readyz and on its API, through the
 * gateway — never a 500 or a hang; when it is back the service recovers by
 * itself, and every write it had acknowledged is there.
 */
let postgres: PrivateServer;
let auth: RunningProcess;
let gateway: RunningProcess;

beforeAll(async () => {
  postgres = await privatePostgres();
  const namespace = testNamespace('pgrestart');
  auth = await startProcess({
    name: 'auth',
    entry: 'services/auth/src/server.ts',
    port: await freePort(),
    env: {
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      JWT_SECRET: DEV_JWT_SECRET,
      DATABASE_URL: `${postgres.url}/hoptrack_auth`,
      NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      BUS_NAMESPACE: namespace,
    },
  });
  gateway = await startGateway({ env: { AUTH_SERVICE_URL: auth.url, GATEWAY_RATE_LIMIT_PREFIX: `${namespace}:`, GATEWAY_RATE_LIMIT_MAX: '100000' } });
});
afterAll(async () => {
  await gateway?.stop();
  await auth?.stop();
  await postgres?.stop();
});

const register = (n: string) =>
  fetch(`${gateway.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `${n}@pg-restart.test`, username: n, displayName: n, password: 'hoppy-secret-1' }),
    signal: AbortSignal.timeout(10_000),
  });
const login = (n: string) =>
  fetch(`${gateway.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `${n}@pg-restart.test`, password: 'hoppy-secret-1' }),
    signal: AbortSignal.timeout(10_000),
  });
const ready = async () => (await fetch(`${auth.url}/readyz`, { signal: AbortSignal.timeout(5000) })).status;

describe('Postgres killed and restarted under the auth service', () => {
  it('answers 503 while it is down, recovers by itself, and loses no acknowledged write', { timeout: 120_000 }, async () => {
    const run = Math.random().toString(36).slice(2, 8);
    const acknowledged: string[] = [];
    for (let i = 0; i < 10; i++) {
      const name = `pg${run}${i}`;
      if ((await register(name)).status === 201) acknowledged.push(name);
    }
    expect(acknowledged).toHaveLength(10);

    await postgres.kill();
    const outage = Date.now();
    await eventually(async () => (await ready()) === 503, 'readyz says not ready', 15_000);
    const during: number[] = [];
    for (let i = 0; i < 5; i++) during.push((await register(`pgdown${run}${i}`)).status);
    during.push((await login(acknowledged[0] as string)).status);
    console.info(`[figure] Postgres down: readyz 503; API answers ${[...new Set(during)].join(', ')}`);
    expect(new Set(during)).toEqual(new Set([503]));

    await postgres.start();
    await eventually(async () => (await ready()) === 200, 'readyz ready again', 30_000);
    const recoveredAfter = (Date.now() - outage) / 1000;
    // The first requests after the restart may still meet a dead pooled connection: the service must retry or 503, never 500.
    await eventually(async () => (await login(acknowledged[0] as string)).status === 200, 'logins work again', 15_000);
    const lost: string[] = [];
    for (const name of acknowledged) if ((await login(name)).status !== 200) lost.push(name);
    console.info(`[figure] Postgres kill -9 and restart: acknowledged writes lost ${lost.length} of ${acknowledged.length}; ready again ${recoveredAfter.toFixed(1)} s after the kill`);
    expect(lost).toEqual([]);
    expect((await register(`pgafter${run}`)).status).toBe(201);
  });
});
