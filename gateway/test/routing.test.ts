import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION_BOUND_MS } from '@hoptrack/testing/bounds';
import { startGateway } from '@hoptrack/testing/gateway';
import type { RunningProcess } from '@hoptrack/testing/processes';
import { expectGatewayError, fetchJson, logLines, rateLimitPrefix, runId, startAuth, UUID, waitForLogLine, watchRedis } from './support';

/** express-gateway's request ids: uuid62 (a v4 uuid in base 62). */
const GATEWAY_REQUEST_ID = /^[0-9A-Za-z]{20,22}$/;

/**
 * The gateway in front of the real auth service: what a browser's /api
 * call goes through in production.
 */
describe('gateway → auth service', () => {
  let auth: RunningProcess;
  let gateway: RunningProcess;
  let limited: RunningProcess;
  let behindProxy: RunningProcess;
  /** Two gateways with one budget, as two replicas have. */
  let sharedA: RunningProcess;
  let sharedB: RunningProcess;
  /** Only the batching test's requests: its count starts at zero and no window rolls over mid-test. */
  let batching: RunningProcess;
  const LIMIT = 3;
  const SHARED_LIMIT = 4;

  beforeAll(async () => {
    auth = await startAuth();
    const gatewayFor = (name: string, env: Record<string, string> = {}) =>
      startGateway({
        env: { AUTH_SERVICE_URL: auth.url, GATEWAY_RATE_LIMIT_PREFIX: rateLimitPrefix(name), WEB_DIST_DIR: '', ...env },
      });
    const shared = { GATEWAY_RATE_LIMIT_MAX: String(SHARED_LIMIT), GATEWAY_RATE_LIMIT_PREFIX: rateLimitPrefix('shared') };
    [gateway, limited, behindProxy, sharedA, sharedB, batching] = await Promise.all([
      gatewayFor('routing'),
      gatewayFor('limited', { GATEWAY_RATE_LIMIT_MAX: String(LIMIT) }),
      // As behind a load balancer on the same host.
      gatewayFor('trusting', { GATEWAY_TRUST_PROXY: 'loopback' }),
      gatewayFor('shared-a', shared),
      gatewayFor('shared-b', shared),
      // A window far longer than the file runs on a slow machine: a key expiring between the
      // two counts would read as hits lost (CI saw exactly that with the shared 60 s window).
      gatewayFor('batching', { GATEWAY_RATE_LIMIT_WINDOW_MS: String(30 * 60_000) }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([gateway?.stop(), batching?.stop(), limited?.stop(), behindProxy?.stop(), sharedA?.stop(), sharedB?.stop(), auth?.stop()]);
  });

  const authLogLine = (reqId: string) => waitForLogLine(auth, (line) => line.reqId === reqId);

  it('routes POST /api/auth/login to auth and relays its JSON 401', async () => {
    const res = await fetchJson(`${gateway.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `nobody-${runId}@example.com`, password: 'not-the-password' }),
    });

    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    // auth, not the gateway, answered: it logged the request under the same id.
    const requestId = res.headers.get('x-request-id') ?? '';
    expect(res.body.requestId).toBe(requestId);
    await authLogLine(requestId);
  });

  it('routes GET /api/me to auth, which wants a token', async () => {
    const res = await fetchJson(`${gateway.url}/api/me`);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });

  it('passes a valid incoming request id to the service and back', async () => {
    const id = `test-${runId}-${Date.now()}`;
    const res = await fetchJson(`${gateway.url}/api/me`, { headers: { 'x-request-id': id } });

    expect(res.headers.get('x-request-id')).toBe(id);
    const serviceLine = await waitForLogLine(auth, (line) => line.reqId === id && line.msg === 'request completed');
    expect(serviceLine).toMatchObject({ service: 'auth', req: { method: 'GET', url: '/api/me' }, res: { statusCode: 401 } });
    const gatewayLine = await waitForLogLine(gateway, (line) => line.reqId === id && line.msg === 'request completed');
    expect(gatewayLine).toMatchObject({ route: 'auth', res: { statusCode: 401 } });
    // One access line per request and process (issue 41): Fastify's own pair is off.
    const accessLines = (proc: typeof auth) =>
      logLines(proc).filter((l) => l.reqId === id && (l.msg === 'incoming request' || l.msg === 'request completed'));
    expect(accessLines(auth)).toHaveLength(1);
    expect(accessLines(gateway)).toHaveLength(1);
  });

  it('keeps a reset token in the URL out of the gateway and service logs', async () => {
    const id = `reset-${runId}-${Date.now()}`;
    const res = await fetchJson(`${gateway.url}/api/auth/verify-reset-token/leaky-secret-${runId}`, { headers: { 'x-request-id': id } });
    expect(res.status).toBe(400);
    await authLogLine(id);
    await waitForLogLine(gateway, (line) => line.reqId === id && line.msg === 'request completed');
    expect([...auth.lines, ...gateway.lines].join('\n')).not.toContain(`leaky-secret-${runId}`);
  });

  it('creates a request id when none (or a malformed one) is sent', async () => {
    const none = await fetchJson(`${gateway.url}/api/me`);
    const malformed = await fetchJson(`${gateway.url}/api/me`, { headers: { 'x-request-id': 'has spaces & "quotes"' } });

    for (const res of [none, malformed]) {
      // express-gateway's own id for the request (a base-62 uuid): the one id it has, not a second one minted beside it.
      const id = res.headers.get('x-request-id') ?? '';
      expect(id).toMatch(GATEWAY_REQUEST_ID);
      expect(id).not.toMatch(UUID);
      await authLogLine(id);
      await waitForLogLine(gateway, (line) => line.reqId === id && line.msg === 'request completed');
    }
    expect(none.headers.get('x-request-id')).not.toBe(malformed.headers.get('x-request-id'));
  });

  it('lets the service see the connecting address, not a forged X-Forwarded-For', async () => {
    const id = `test-${runId}-xff`;
    await fetchJson(`${gateway.url}/api/me`, { headers: { 'x-request-id': id, 'x-forwarded-for': '203.0.113.7' } });
    const incoming = await waitForLogLine(auth, (line) => line.reqId === id && line.msg === 'request completed');
    expect(incoming.req).toMatchObject({ remoteAddress: '127.0.0.1' });
  });

  it('passes on the client address a trusted proxy in front reports', async () => {
    const id = `test-${runId}-trusted-xff`;
    await fetchJson(`${behindProxy.url}/api/me`, { headers: { 'x-request-id': id, 'x-forwarded-for': '203.0.113.7' } });
    const incoming = await waitForLogLine(auth, (line) => line.reqId === id && line.msg === 'request completed');
    expect(incoming.req).toMatchObject({ remoteAddress: '203.0.113.7' });
  });

  it('answers 429 JSON once a client exceeds the limit, proxied routes included', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) statuses.push((await fetchJson(`${limited.url}/api/me`)).status);
    expect(statuses).toEqual(Array(LIMIT).fill(401));

    const refused = await fetchJson(`${limited.url}/api/me`);
    expectGatewayError(refused, 429, 'Too many requests, please try again later.');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The unknown-path pipeline shares the same per-client budget.
    expect((await fetchJson(`${limited.url}/api/nothing-here`)).status).toBe(429);
  });

  /** Redis's count of a gateway budget's keys (one client here: this test process). */
  const redisCount = async (redis: Redis, prefix: string) => {
    const keys = await redis.keys(`${prefix}*`);
    const values = keys.length > 0 ? await redis.mget(...keys) : [];
    return values.reduce((sum, v) => sum + Number(v ?? 0), 0);
  };

  it('judges each request locally and sends the hits to Redis in batches, with the script text once at most', async () => {
    // What Redis receives for this gateway's rate-limit keys (the prefix is this file's own).
    const prefix = rateLimitPrefix('batching');
    const reader = new Redis('redis://127.0.0.1:6379');
    const monitor = await watchRedis();
    // KEYS and MGET are this test's own reads (redisCount).
    const commands = () =>
      monitor.commands
        .filter((args) => args.some((arg) => arg.startsWith(prefix)))
        .map((args) => String(args[0]).toLowerCase())
        .filter((command) => !['keys', 'mget', 'echo'].includes(command));
    try {
      expect(await redisCount(reader, prefix)).toBe(0);
      const REQUESTS = 20;
      // Ten at a time: requests that arrive together go to Redis together.
      for (let i = 0; i < REQUESTS; i += 10) {
        const answers = await Promise.all(Array.from({ length: 10 }, () => fetchJson(`${batching.url}/api/me`)));
        expect(answers.map((a) => a.status)).toEqual(Array(10).fill(401));
      }
      // Every hit reaches Redis, in fewer calls than requests (one per batch, 100 ms apart).
      await expect.poll(() => redisCount(reader, prefix), { timeout: CONDITION_BOUND_MS }).toBe(REQUESTS);
      // The monitor's socket may lag the reader's: an ECHO sent now is seen after every hit.
      const marker = `${prefix}:seen-all`;
      await reader.echo(marker);
      await expect.poll(() => monitor.commands.some((args) => args[1] === marker), { timeout: CONDITION_BOUND_MS }).toBe(true);
      const seen = commands();
      expect(seen.filter((c) => c === 'evalsha').length).toBeGreaterThan(0);
      expect(seen.filter((c) => c === 'evalsha').length).toBeLessThan(REQUESTS / 2);
      // Its text goes once at most: when Redis did not know the script yet (NOSCRIPT).
      expect(seen.filter((c) => c === 'eval').length).toBeLessThanOrEqual(1);
      expect(seen.filter((c) => !['eval', 'evalsha', 'incrby', 'pexpire', 'pttl'].includes(c))).toEqual([]);
    } finally {
      monitor.stop();
      reader.disconnect();
    }
  });

  it('shares one budget between gateways through Redis', async () => {
    const reader = new Redis('redis://127.0.0.1:6379');
    try {
      const prefix = rateLimitPrefix('shared');
      for (let i = 0; i < SHARED_LIMIT / 2; i++) expect((await fetchJson(`${sharedA.url}/api/me`)).status).toBe(401);
      // Once A's hits reached Redis, B's next answer from Redis counts them.
      await expect.poll(() => redisCount(reader, prefix), { timeout: CONDITION_BOUND_MS }).toBe(SHARED_LIMIT / 2);
      expect((await fetchJson(`${sharedB.url}/api/me`)).status).toBe(401);
      await expect.poll(() => redisCount(reader, prefix), { timeout: CONDITION_BOUND_MS }).toBe(SHARED_LIMIT / 2 + 1);
      expect((await fetchJson(`${sharedB.url}/api/me`)).status).toBe(401);
      // The fifth request of the budget, on B, which itself saw only two.
      expectGatewayError(await fetchJson(`${sharedB.url}/api/me`), 429, 'Too many requests, please try again later.');
    } finally {
      reader.disconnect();
    }
  });

  // Last: it stops the auth service.
  it('answers 503 JSON within a second once the auth service is stopped', async () => {
    await auth.stop();
    const started = Date.now();
    const res = await fetchJson(`${gateway.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `nobody-${runId}@example.com`, password: 'whatever' }),
    });

    expect(Date.now() - started).toBeLessThan(1000);
    expectGatewayError(res, 503, 'The auth service is unavailable');
  });
});
