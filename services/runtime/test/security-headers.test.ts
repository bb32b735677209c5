import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestsDatabase } from './requests-db';
import { z } from 'zod';
import { memoryLogger } from '@hoptrack/testing';
import { notFound } from '../src/http/errors';
import { createMetrics } from '../src/http/metrics';
import { defineRoutes, publicAccess } from '@hoptrack/proto';
import { createServer } from '../src/http/server';
import { mountRoutes } from '../src/http/routes';
import { API_SECURITY_HEADERS, HSTS } from '../src/http/security-headers';

/** The platform's idempotent-requests table, which every mounted write keeps its Idempotency-Key answers in. */
let requests: Awaited<ReturnType<typeof requestsDatabase>>;
beforeAll(async () => {
  requests = await requestsDatabase('runtime_headers');
});
afterAll(() => requests.close());

/**
 * Issue 19, item 5: every answer of every service carries the security
 * headers (createServer is the one place services get their server from):
 * successes, errors, 404s of unknown paths; HSTS only over TLS.
 */
describe('security headers on API answers', () => {
  const build = () => {
    const app = createServer({ logger: memoryLogger('svc').logger, metrics: createMetrics('svc'), trustProxy: true });
    const table = defineRoutes('places', {
      thing: { method: 'GET', path: '/api/thing', summary: 'a success', access: publicAccess('a test route'), responses: { 200: z.object({ ok: z.boolean() }) } },
      missing: { method: 'GET', path: '/api/missing', summary: 'an error', access: publicAccess('a test route') },
    });
    mountRoutes(
      app,
      table,
      {
        thing: async () => ({ ok: true }),
        missing: async () => {
          throw notFound('No such thing');
        },
      },
      { authenticate: async () => undefined, db: requests.db },
    );
    return app;
  };

  it.each([
    ['a success', '/api/thing', 200],
    ['an error the handler throws', '/api/missing', 404],
    ['an unknown path', '/api/nowhere', 404],
    ['a health check', '/healthz', 200],
  ])('%s', async (_what, url, status) => {
    const app = build();
    const res = await app.inject({ method: 'GET', url });
    await app.close();
    expect(res.statusCode).toBe(status);
    for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) expect(res.headers[name], name).toBe(value);
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('adds HSTS when the request came over TLS (as the trusted proxy says)', async () => {
    const app = build();
    const res = await app.inject({ method: 'GET', url: '/api/thing', headers: { 'x-forwarded-proto': 'https' } });
    await app.close();
    expect(res.headers['strict-transport-security']).toBe(HSTS);
  });
});
