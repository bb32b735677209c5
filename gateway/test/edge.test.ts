import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_SECURITY_HEADERS } from '@hoptrack/runtime/security-headers';
import { startGateway } from '@hoptrack/testing/gateway';
import { freePort, type RunningProcess } from '@hoptrack/testing/processes';
import { expectGatewayError, fakeWebDist, fetchJson, rateLimitPrefix } from './support';

/**
 * What the gateway answers by itself: unknown /api paths, CORS, metrics,
 * health, the web app, and failures of what is behind it. No service is
 * needed for these; where one would be, a port with nothing (or something
 * broken) behind it stands in for a service that is down.
 */
describe('gateway edge', () => {
  let gateway: RunningProcess;
  let webDist: string;

  beforeAll(async () => {
    webDist = await fakeWebDist();
    gateway = await startGateway({
      env: {
        AUTH_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
        GATEWAY_RATE_LIMIT_PREFIX: rateLimitPrefix('edge'),
        WEB_DIST_DIR: webDist,
      },
    });
  });

  afterAll(async () => {
    await gateway?.stop();
    if (webDist) await rm(webDist, { recursive: true, force: true });
  });

  describe('unknown /api paths', () => {
    it.each([
      ['GET', '/api/no-such-service/items?page=2', 'No API route for GET /api/no-such-service/items'],
      ['POST', '/api', 'No API route for POST /api'],
      ['DELETE', '/api/authx', 'No API route for DELETE /api/authx'],
    ])('%s %s → JSON 404', async (method, path, message) => {
      expectGatewayError(await fetchJson(`${gateway.url}${path}`, { method }), 404, message);
    });

    it("carries the API's security headers, like every service's answers (issue 19); HSTS only over TLS", async () => {
      const res = await fetch(`${gateway.url}/api/no-such-service`);
      expect(res.status).toBe(404);
      for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) expect(res.headers.get(name), name).toBe(value);
      expect(res.headers.get('strict-transport-security')).toBeNull();
    });
  });

  describe('CORS', () => {
    const preflight = (origin: string) =>
      fetch(`${gateway.url}/api/auth/login`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });

    it('answers a preflight from the web app origin', async () => {
      const res = await preflight('http://localhost:5173');
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      expect(res.headers.get('access-control-allow-methods')).toContain('POST');
      expect(res.headers.get('access-control-allow-headers')).toBe('authorization,content-type');
    });

    it('does not allow other origins', async () => {
      const res = await preflight('https://evil.example');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('lets the browser read the request id', async () => {
      const res = await fetch(`${gateway.url}/api/unknown`, { headers: { origin: 'http://127.0.0.1:5173' } });
      expect(res.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173');
      expect(res.headers.get('access-control-expose-headers')).toContain('x-request-id');
    });
  });

  it('answers 503 JSON at once for a service nobody listens for', async () => {
    const started = Date.now();
    const res = await fetchJson(`${gateway.url}/api/me`);
    expect(Date.now() - started).toBeLessThan(1000);
    expectGatewayError(res, 503, 'The auth service is unavailable');
  });

  it('exposes a request-duration histogram labelled by route name, never by raw path', async () => {
    await fetchJson(`${gateway.url}/api/some/user/1234`);
    const text = await (await fetch(`${gateway.metricsUrl}/metrics`)).text();
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toMatch(/http_request_duration_seconds_bucket\{[^}]*method="GET",route="unknownApi",status_code="404"/);
    expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*route="auth",status_code="503"/);
    expect(text).not.toContain('/api/some/user/1234');
    expect(text).toContain('process_cpu_seconds_total');
  });

  it('serves its metrics on the operator port only, never on the public one (issue 39)', async () => {
    const pub = await fetch(`${gateway.url}/metrics`);
    expect(pub.status).toBe(404);
    expect(await pub.text()).not.toContain('http_request_duration_seconds');
    expect((await fetch(`${gateway.metricsUrl}/metrics`)).status).toBe(200);
    // The operator port serves nothing else: no API, no web app.
    expect((await fetch(`${gateway.metricsUrl}/api/me`)).status).toBe(404);
  });

  it('reports health and readiness', async () => {
    expect(await fetchJson(`${gateway.url}/healthz`)).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await fetchJson(`${gateway.url}/readyz`)).toMatchObject({ status: 200, body: { checks: { redis: 'ok' } } });
  });

  describe('web app', () => {
    it.each(['/', '/sessions/42', '/settings/privacy'])('serves index.html for %s', async (path) => {
      const res = await fetch(`${gateway.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('<title>Hoptrack test</title>');
    });

    it('serves hashed assets with a long cache', async () => {
      const res = await fetch(`${gateway.url}/assets/index-Ab12Cd34.js`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/javascript/);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    });

    it('sends the web app with a Content-Security-Policy that allows no inline or foreign script', async () => {
      for (const path of ['/', '/assets/index-Ab12Cd34.js']) {
        const res = await fetch(`${gateway.url}${path}`);
        const csp = res.headers.get('content-security-policy') ?? '';
        expect(csp, path).toContain("script-src 'self'");
        expect(csp, path).not.toMatch(/script-src[^;]*'unsafe-inline'/);
        expect(csp, path).toContain("object-src 'none'");
        expect(csp, path).toContain("frame-ancestors 'none'");
        expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      }
    });

    it('answers 404 for a missing asset instead of index.html', async () => {
      const res = await fetch(`${gateway.url}/assets/index-gone.js`);
      expect(res.status).toBe(404);
    });
  });
});

describe('gateway with a broken or missing dependency', () => {
  let broken: Server;
  let gateway: RunningProcess;

  beforeAll(async () => {
    // A service that is up but broken: it never answers /api/auth/verify-reset-token/slow and
    // drops every other connection at once, like a crashing process.
    broken = createServer((socket) => {
      socket.once('data', (head) => {
        if (!head.toString().includes('/api/auth/verify-reset-token/slow')) socket.resetAndDestroy();
      });
    });
    const port = await freePort();
    await new Promise<void>((resolve) => broken.listen(port, '127.0.0.1', resolve));
    gateway = await startGateway({
      env: {
        AUTH_SERVICE_URL: `http://127.0.0.1:${port}`,
        GATEWAY_RATE_LIMIT_PREFIX: rateLimitPrefix('broken'),
        GATEWAY_PROXY_TIMEOUT_MS: '300',
        WEB_DIST_DIR: '',
        // Redis is "down": nothing listens on this port.
        REDIS_PORT: String(await freePort()),
      },
      readyPath: '/healthz',
    });
  });

  afterAll(async () => {
    await gateway?.stop();
    broken?.close();
  });

  it('answers 502 JSON when the service drops the connection', async () => {
    expectGatewayError(await fetchJson(`${gateway.url}/api/me`), 502, 'The auth service failed to answer');
  });

  it('answers 502 JSON when the service does not answer in time', async () => {
    const started = Date.now();
    const res = await fetchJson(`${gateway.url}/api/auth/verify-reset-token/slow`);
    expectGatewayError(res, 502, 'The auth service did not answer in time');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('is not ready without Redis, yet keeps serving /api (the limiter counts locally meanwhile)', async () => {
    const ready = await fetchJson(`${gateway.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: 'not ready' });

    const started = Date.now();
    expectGatewayError(await fetchJson(`${gateway.url}/api/unknown`), 404, 'No API route for GET /api/unknown');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
