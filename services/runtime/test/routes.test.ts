import { adminsOnly, defineRoutes, moderatorsOnly, publicAccess, signedLink, type Role } from '@hoptrack/proto';
import { memoryLogger } from '@hoptrack/testing';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestsDatabase } from './requests-db';
import { z } from 'zod';
import { unauthorized } from '../src/http/errors';
import { createMetrics } from '../src/http/metrics';
import { registeredRoutes } from '../src/http/route-table';
import { ContractMismatchError, mountRoutes, STAFF_ONLY, type Handlers } from '../src/http/routes';
import { createServer } from '../src/http/server';

/** The platform's idempotent-requests table, which every mounted write keeps its Idempotency-Key answers in. */
let requests: Awaited<ReturnType<typeof requestsDatabase>>;
beforeAll(async () => {
  requests = await requestsDatabase('runtime_routes');
});
afterAll(() => requests.close());

/**
 * Issue 37: a route is its contract and its handler. Forgetting either
 * stops the server; forgetting to open a route leaves it signed-in; a route
 * registered by hand beside the contracts stops it too.
 */

const TOKEN = 'the-one-good-token';
const USER = '7b0f2a4e-1111-4c1a-9f00-000000000001';

/** The staff's tokens of the stand-in (issue 42): the roles come with the bearer check's read, as from the people table. */
const STAFF_TOKENS: Record<string, Role[]> = { 'a-moderator-token': ['moderator'], 'an-admin-token': ['admin'] };

/** A stand-in for the bearer check: the real one (bearerAuth) has its own tests in tokens.test.ts. */
async function authenticate(request: FastifyRequest): Promise<void> {
  const token = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
  const roles = token === TOKEN ? [] : STAFF_TOKENS[token];
  if (!roles) throw unauthorized();
  request.auth = { userId: USER, tokenVersion: 1, roles };
}

const table = defineRoutes('places', {
  // No `access`: the contract says nothing, so the route is signed-in.
  mine: {
    method: 'POST',
    path: '/api/things/:id',
    summary: 'a signed-in write',
    params: z.object({ id: z.string().min(3) }),
    body: z.object({ name: z.string().min(1) }),
    responses: { 201: z.object({ id: z.string(), name: z.string(), by: z.string() }) },
  },
  open: { method: 'GET', path: '/api/things', summary: 'a public list', access: publicAccess('a test of the public level'), responses: { 200: z.array(z.string()) } },
  link: { method: 'GET', path: '/api/things/files/*', summary: 'a signed link', access: signedLink('a test of the signed-link level') },
  small: { method: 'PUT', path: '/api/things/:id/small', summary: 'a tiny body', body: z.object({ text: z.string() }), bodyLimit: 100 },
  queue: {
    method: 'POST',
    path: '/api/moderation/things',
    summary: "a moderator's write",
    access: moderatorsOnly,
    body: z.object({ reason: z.string().min(1) }),
    responses: { 200: z.object({ roles: z.array(z.string()) }) },
  },
  audit: { method: 'GET', path: '/api/moderation/things/audit', summary: "an admin's read", access: adminsOnly, responses: { 200: z.array(z.string()) } },
  pages: {
    method: 'GET',
    path: '/api/things/pages',
    summary: 'a list a page at a time',
    paged: true,
    query: z.object({ cursor: z.string().optional() }),
    responses: { 200: z.array(z.string()) },
  },
});

const handlers: Handlers<typeof table> = {
  // The contract declares 201 alone: the runtime answers it, the handler only returns the body.
  mine: async (request) => ({ id: request.params.id, name: request.body.name, by: request.auth.userId }),
  open: async () => ['one', 'two'],
  link: async (_request, reply) => reply.code(204).send(),
  // Nothing returned, nothing sent: the runtime answers 204.
  small: async () => undefined,
  queue: async (request) => ({ roles: [...request.auth.roles] }),
  audit: async () => ['seen'],
  // A paged contract's handler returns a page; the runtime answers its items and puts the cursor in a header.
  pages: async (request) => (request.query.cursor ? { items: ['c'], next: null } : { items: ['a', 'b'], next: 'page-2' }),
};

function server(options: { uncontracted?: { reason: string } } = {}) {
  return createServer({ logger: memoryLogger('routes').logger, metrics: createMetrics('routes'), ...options });
}

describe('routes mounted from contracts', () => {
  it('a contract that names no access is signed-in: 401 without a token, and the handler gets the identity with one', async () => {
    const app = server();
    mountRoutes(app, table, handlers, { authenticate, db: requests.db });
    const anonymous = await app.inject({ method: 'POST', url: '/api/things/abc', payload: { name: 'x' } });
    expect(anonymous.statusCode).toBe(401);
    const signed = await app.inject({ method: 'POST', url: '/api/things/abc', payload: { name: 'x' }, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(signed.statusCode).toBe(201);
    expect(signed.json()).toEqual({ id: 'abc', name: 'x', by: USER });
    await app.close();
  });

  it('checks the identity before the body: without a token an invalid body is a 401, not a 400 that tells what is expected', async () => {
    const app = server();
    mountRoutes(app, table, handlers, { authenticate, db: requests.db });
    const anonymous = await app.inject({ method: 'POST', url: '/api/things/a', payload: { nope: true } });
    expect(anonymous.statusCode).toBe(401);
    // The control: with the token the same request is refused by validation, naming the field.
    const signed = await app.inject({ method: 'POST', url: '/api/things/a', payload: { nope: true }, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(signed.statusCode).toBe(400);
    expect(signed.json()).toMatchObject({ field: 'id' });
    await app.close();
  });

  it('opens only what its contract opens, with a reason', async () => {
    const app = server();
    mountRoutes(app, table, handlers, { authenticate, db: requests.db });
    expect((await app.inject({ method: 'GET', url: '/api/things' })).json()).toEqual(['one', 'two']);
    expect((await app.inject({ method: 'GET', url: '/api/things/files/a/b.webp' })).statusCode).toBe(204);
    expect(table.open.access).toEqual({ level: 'public', reason: 'a test of the public level' });
    expect(table.mine.access).toEqual({ level: 'signed-in' });
    await app.close();
  });

  it('answers a staff route only to its role, before the body is read: 401 without a token, 403 without the role (issue 42)', async () => {
    const app = server();
    mountRoutes(app, table, handlers, { authenticate, db: requests.db });
    const call = (method: 'GET' | 'POST', url: string, token?: string, payload?: object) =>
      app.inject({ method, url, ...(payload ? { payload } : {}), headers: token ? { authorization: `Bearer ${token}` } : {} });
    expect((await call('POST', '/api/moderation/things', undefined, { reason: 'x' })).statusCode).toBe(401);
    const plain = await call('POST', '/api/moderation/things', TOKEN, { reason: 'x' });
    expect(plain.statusCode).toBe(403);
    expect(plain.json()).toMatchObject({ message: STAFF_ONLY.moderator });
    // Refused before validation: an invalid body from someone without the role learns nothing of the schema.
    expect((await call('POST', '/api/moderation/things', TOKEN, { nope: 1 })).statusCode).toBe(403);
    expect((await call('POST', '/api/moderation/things', 'a-moderator-token', { nope: 1 })).statusCode).toBe(400);
    expect((await call('POST', '/api/moderation/things', 'a-moderator-token', { reason: 'x' })).json()).toEqual({ roles: ['moderator'] });
    // An admin may do what a moderator may; a moderator may not do what only an admin may.
    expect((await call('POST', '/api/moderation/things', 'an-admin-token', { reason: 'x' })).statusCode).toBe(200);
    const moderatorAudit = await call('GET', '/api/moderation/things/audit', 'a-moderator-token');
    expect(moderatorAudit.statusCode).toBe(403);
    expect(moderatorAudit.json()).toMatchObject({ message: STAFF_ONLY.admin });
    expect((await call('GET', '/api/moderation/things/audit', 'an-admin-token')).json()).toEqual(['seen']);
    expect(table.audit.access).toEqual({ level: 'role', role: 'admin' });
    await app.close();
  });

  it("applies the contract's body limit (413)", async () => {
    const app = server();
    mountRoutes(app, table, handlers, { authenticate, db: requests.db });
    const headers = { authorization: `Bearer ${TOKEN}` };
    expect((await app.inject({ method: 'PUT', url: '/api/things/abc/small', payload: { text: 'short' }, headers })).statusCode).toBe(204);
    expect((await app.inject({ method: 'PUT', url: '/api/things/abc/small', payload: { text: 'x'.repeat(200) }, headers })).statusCode).toBe(413);
    await app.close();
  });

  it('stops at start when a contract has no handler, or a handler no contract', () => {
    const { small: _dropped, ...withoutOne } = handlers;
    // @ts-expect-error -- the type of the handler map requires one handler per contract
    const incomplete: Handlers<typeof table> = withoutOne;
    expect(() => mountRoutes(server(), table, incomplete, { authenticate, db: requests.db })).toThrow(ContractMismatchError);
    expect(() => mountRoutes(server(), table, incomplete, { authenticate, db: requests.db })).toThrow(/contract places\.small \(PUT \/api\/things\/:id\/small\) has no handler/);
    const extra = { ...handlers, stray: async () => 'x' };
    expect(() => mountRoutes(server(), table, extra, { authenticate, db: requests.db })).toThrow(/handler stray has no contract/);
  });

  it('stops at ready when a route was registered beside the contracts, whatever the registration style', async () => {
    for (const register of [
      (app: ReturnType<typeof server>) => app.get('/api/secret', async () => 'open'),
      (app: ReturnType<typeof server>) => app.route({ method: 'DELETE', url: '/api/users/:id', handler: async () => 'gone' }),
      (app: ReturnType<typeof server>) => app.register(async (scope) => scope.post('/x', async () => 'hidden'), { prefix: '/api/v2' }),
    ]) {
      const app = server();
      mountRoutes(app, table, handlers, { authenticate, db: requests.db });
      register(app);
      await expect(app.ready()).rejects.toThrow(/routes outside the contracts: (GET \/api\/secret|DELETE \/api\/users\/:id|POST \/api\/v2\/x)$/);
      await app.close().catch(() => undefined);
    }
  });

  it('records the route table Fastify registered: the contracts, the runtime own routes, and nothing else', async () => {
    const app = server();
    mountRoutes(app, table, handlers, { authenticate, db: requests.db });
    await app.ready();
    const routes = registeredRoutes(app).map((r) => `${r.method} ${r.url} ${r.contract ?? (r.runtime ? 'runtime' : '-')}`);
    expect(routes.sort()).toEqual(
      [
        'POST /api/things/:id places.mine',
        'GET /api/things places.open',
        'GET /api/things/files/* places.link',
        'PUT /api/things/:id/small places.small',
        'GET /api/things/pages places.pages',
        'POST /api/moderation/things places.queue',
        'GET /api/moderation/things/audit places.audit',
        'GET /healthz runtime',
        'GET /readyz runtime',
        'GET /metrics runtime',
      ].sort(),
    );
    await app.close();
  });

  it('lets a process that is no API (the queue board) opt out, with its reason', async () => {
    const app = server({ uncontracted: { reason: "an operator tool's own routes" } });
    app.get('/queues', async () => 'board');
    await app.ready();
    expect((await app.inject({ method: 'GET', url: '/queues' })).body).toBe('board');
    await app.close();
  });
});

describe('handler types follow the contract', () => {
  it('answers a paged contract with the page\'s items, the next page\'s cursor in x-next-cursor and none on the last', async () => {
    const app = server();
    mountRoutes(app, table, handlers, { authenticate, db: requests.db });
    const headers = { authorization: `Bearer ${TOKEN}` };
    const first = await app.inject({ method: 'GET', url: '/api/things/pages', headers });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual(['a', 'b']);
    expect(first.headers['x-next-cursor']).toBe('page-2');
    const last = await app.inject({ method: 'GET', url: '/api/things/pages?cursor=page-2', headers });
    expect(last.json()).toEqual(['c']);
    expect(last.headers['x-next-cursor']).toBeUndefined();
  });

  it('a public handler has no identity to read, a signed-in one has', () => {
    const typed: Handlers<typeof table> = {
      ...handlers,
      // @ts-expect-error -- a public contract's request carries no identity
      open: async (request) => [request.auth.userId],
    };
    expect(Object.keys(typed).sort()).toEqual(['audit', 'link', 'mine', 'open', 'pages', 'queue', 'small']);
  });
});
