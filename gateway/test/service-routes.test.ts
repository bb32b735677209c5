import { allContracts, DEFAULT_BODY_LIMIT, fillPath, paramsOf, SERVICE_NAMES } from '@hoptrack/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiEndpointsFromContracts, routedContracts } from '../src/routes';
import { startGateway } from '@hoptrack/testing/gateway';
import { freePort, type RunningProcess } from '@hoptrack/testing/processes';
import { rateLimitPrefix } from './support';

const SAMPLE_ID = '0b7e1c7a-3b0e-4d2a-9a57-7d8b3c1e2f00';

/**
 * The routing table itself, derived from the contract table (src/routes.ts):
 * every contract reaches the service that declares it, and nothing else is
 * routed. The services are pointed at closed ports, so the 503 names which
 * service the gateway tried — no service has to run for this.
 */
describe('routing table', () => {
  let gateway: RunningProcess;
  beforeAll(async () => {
    gateway = await startGateway({
      env: {
        AUTH_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
        SOCIAL_GRAPH_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
        MEDIA_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
        PLACES_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
        SESSIONS_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
        MESSAGING_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
        NOTIFICATIONS_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
        CHALLENGES_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
        GATEWAY_RATE_LIMIT_PREFIX: rateLimitPrefix('routes'),
      },
    });
  });
  afterAll(() => gateway.stop());

  /** A well-formed value for a path parameter (nothing needs to exist: no service runs). */
  const sample = (param: string) => (param === '*' ? 'avatars/a/b.webp' : param === 'token' ? 'abc.def' : param === 'username' ? 'someone' : SAMPLE_ID);

  it('derives its routes from the contract table: every routed contract, and only those', () => {
    const routed = routedContracts();
    // The table is the whole API: a broken import finds nothing.
    expect(routed.length).toBeGreaterThan(90);
    const internal = allContracts().filter((c) => c.access.level === 'internal');
    expect(internal.map((c) => `${c.method} ${c.path}`)).toEqual(expect.arrayContaining(['POST /internal/uploads']));
    const endpoints = apiEndpointsFromContracts();
    expect(Object.keys(endpoints).sort()).toEqual([...SERVICE_NAMES, 'messaging-live'].sort());
    const listed = Object.values(endpoints).flatMap((entries) => entries.flatMap((e) => e.methods.map((m) => `${m} ${e.paths.join()}`)));
    expect(listed.sort()).toEqual(routed.map((c) => `${c.method} ${c.path}`).sort());
  });

  it('sends every contract to the service that declares it', async () => {
    const wrong: string[] = [];
    for (const contract of routedContracts()) {
      const path = fillPath(contract.path, Object.fromEntries(paramsOf(contract.path).map((p) => [p, sample(p)])));
      const res = await fetch(`${gateway.url}${path}`, { method: contract.method });
      const body = (await res.json().catch(() => ({}))) as { message?: string };
      if (res.status !== 503 || body.message !== `The ${contract.service} service is unavailable`) {
        wrong.push(`${contract.method} ${path} (${contract.service}.${contract.name}): ${res.status} ${body.message ?? ''}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it.each([
    ['a path no contract names', 'GET', `/api/sessions/${SAMPLE_ID}/unknown`],
    ['a method a contract path does not take', 'PATCH', '/api/sessions'],
    ['an internal contract under /api', 'GET', '/api/internal/uploads'],
  ])('answers 404 itself for %s, reaching no service', async (_what, method, path) => {
    const res = await fetch(`${gateway.url}${path}`, { method });
    expect(res.status).toBe(404);
  });

  it("answers 413 for a JSON body over its contract's limit (64 KB unless the contract says more)", async () => {
    const big = JSON.stringify({ content: 'x'.repeat(DEFAULT_BODY_LIMIT) });
    const res = await fetch(`${gateway.url}/api/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ statusCode: 413, message: 'Request body is too large (at most 64 KB)' });
    // Under the limit it is proxied (to a closed port: 503).
    const small = await fetch(`${gateway.url}/api/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(small.status).toBe(503);
  });

  it('answers 413 itself for an upload over the route limit, before proxying', async () => {
    const res = await fetch(`${gateway.url}/api/media/uploads/abc.def`, { method: 'PUT', body: Buffer.alloc(5 * 1024 * 1024 + 1) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ statusCode: 413, message: 'Upload is too large (at most 5 MB)' });
    // At the limit it is proxied (here to a closed port: 503).
    expect((await fetch(`${gateway.url}/api/media/uploads/abc.def`, { method: 'PUT', body: Buffer.alloc(1024) })).status).toBe(503);
  });

  it('never proxies the internal upload API', async () => {
    // A proxy attempt would reach the (closed) media port and answer 503.
    expect((await fetch(`${gateway.url}/internal/uploads`, { method: 'POST' })).status).toBe(404);
    const get = await fetch(`${gateway.url}/internal/uploads`);
    expect(get.status).not.toBe(503);
    expect(get.headers.get('content-type')).not.toContain('application/json');
  });
});
