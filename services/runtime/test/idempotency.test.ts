import { randomUUID } from 'node:crypto';
import { defineRoutes } from '@hoptrack/proto';
import { memoryLogger, testClock } from '@hoptrack/testing';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpError, unauthorized } from '../src/http/errors';
import { createMetrics } from '../src/http/metrics';
import { mountRoutes, type Handlers } from '../src/http/routes';
import { createServer, type ServiceApp } from '../src/http/server';
import { requestsDatabase } from './requests-db';

/**
 * Issue 38, item 2: every write contract takes an Idempotency-Key (runtime
 * mountRoutes, http/idempotency.ts). Against the real Postgres: a repeat
 * answers the first answer and writes nothing; the same key with another
 * body is refused; a repeat during the first waits for it; keys are per
 * person; an answer not worth keeping (5xx) lets a repeat run; an answer
 * lives 24 hours. Without a key, a repeat writes twice (the control).
 */

let requests: Awaited<ReturnType<typeof requestsDatabase>>;
const clock = testClock();
/** Handlers of the `slow` contract wait on this before writing. */
let gate: Promise<void> = Promise.resolve();

beforeAll(async () => {
  requests = await requestsDatabase('runtime_idempotency');
  await requests.pool.query('CREATE TABLE IF NOT EXISTS "idem_things" (id UUID PRIMARY KEY, owner TEXT NOT NULL, name TEXT NOT NULL)');
});
afterAll(() => requests.close());
beforeEach(async () => {
  await requests.pool.query('TRUNCATE "idem_things", "idempotent_requests"');
  gate = Promise.resolve();
});

const table = defineRoutes('places', {
  create: {
    method: 'POST',
    path: '/api/things',
    summary: 'a create',
    body: z.object({ name: z.string().min(1) }),
    responses: { 201: z.object({ id: z.string(), name: z.string() }) },
  },
  slow: {
    method: 'POST',
    path: '/api/things/slow',
    summary: 'a create that waits on the gate',
    body: z.object({ name: z.string().min(1) }),
    responses: { 201: z.object({ id: z.string(), name: z.string() }) },
  },
  broken: { method: 'POST', path: '/api/things/broken', summary: 'fails the first time', body: z.object({ name: z.string() }) },
  signIn: {
    method: 'POST',
    path: '/api/things/sign-in',
    summary: 'a credential route: its answer carries a token',
    rateLimit: 'credential',
    body: z.object({ name: z.string().min(1) }),
    responses: { 201: z.object({ id: z.string(), name: z.string() }) },
  },
});

let brokenCalls = 0;
async function insert(owner: string, name: string) {
  const id = randomUUID();
  await requests.pool.query('INSERT INTO "idem_things" (id, owner, name) VALUES ($1, $2, $3)', [id, owner, name]);
  return { id, name };
}
const handlers: Handlers<typeof table> = {
  create: async (request) => insert(request.auth.userId, request.body.name),
  slow: async (request) => {
    await gate;
    return insert(request.auth.userId, request.body.name);
  },
  signIn: async (request) => insert(request.auth.userId, request.body.name),
  broken: async (request) => {
    brokenCalls += 1;
    if (brokenCalls === 1) throw new HttpError(503, 'not now');
    await insert(request.auth.userId, request.body.name);
  },
};

async function authenticate(request: FastifyRequest): Promise<void> {
  const user = request.headers.authorization?.replace(/^Bearer /, '');
  if (!user) throw unauthorized();
  request.auth = { userId: user, tokenVersion: 1, roles: [] };
}

function server(): ServiceApp {
  const app = createServer({ logger: memoryLogger('idempotency').logger, metrics: createMetrics('idempotency') });
  mountRoutes(app, table, handlers, { authenticate, db: requests.db, clock: clock.now, idempotencyWaitMs: 1_000 });
  return app;
}

const post = (app: ServiceApp, url: string, user: string, body: object, key?: string) =>
  app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${user}`, ...(key ? { 'idempotency-key': key } : {}) }, payload: body });
const things = async () => (await requests.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM "idem_things"')).rows[0]?.n;

describe('Idempotency-Key on every write contract', () => {
  it('answers a repeat with the first answer, byte for byte, and writes once', async () => {
    const app = server();
    const first = await post(app, '/api/things', 'alice', { name: 'Pint' }, 'key-1');
    const second = await post(app, '/api/things', 'alice', { name: 'Pint' }, 'key-1');
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.body).toBe(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await things()).toBe(1);
  });

  it('writes twice without a key (the control: the repeat is real)', async () => {
    const app = server();
    await post(app, '/api/things', 'alice', { name: 'Pint' });
    await post(app, '/api/things', 'alice', { name: 'Pint' });
    expect(await things()).toBe(2);
  });

  it('refuses the same key with another body (422, the field named), and writes nothing for it', async () => {
    const app = server();
    await post(app, '/api/things', 'alice', { name: 'Pint' }, 'key-2');
    const other = await post(app, '/api/things', 'alice', { name: 'Half' }, 'key-2');
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ field: 'Idempotency-Key', message: expect.stringMatching(/different request/) });
    expect(await things()).toBe(1);
  });

  it('keeps keys apart per person: the same key from two people is two requests', async () => {
    const app = server();
    const alice = await post(app, '/api/things', 'alice', { name: 'Pint' }, 'shared-key');
    const bob = await post(app, '/api/things', 'bob', { name: 'Pint' }, 'shared-key');
    expect(bob.statusCode).toBe(201);
    expect(bob.json().id).not.toBe(alice.json().id);
    expect(await things()).toBe(2);
  });

  it('makes a repeat sent during the first wait for its answer, then answers it; past the wait, 409', async () => {
    const app = server();
    let open = () => {};
    gate = new Promise<void>((resolve) => (open = resolve));
    const first = post(app, '/api/things/slow', 'alice', { name: 'Slow' }, 'key-3');
    // The repeat arrives while the first waits at the gate; the first is let go while the repeat waits.
    await expect.poll(async () => (await requests.pool.query('SELECT 1 FROM "idempotent_requests" WHERE "key" = $1', ['key-3'])).rowCount).toBe(1);
    const repeat = post(app, '/api/things/slow', 'alice', { name: 'Slow' }, 'key-3');
    setTimeout(open, 200);
    const [a, b] = await Promise.all([first, repeat]);
    expect(a.statusCode).toBe(201);
    expect(b.body).toBe(a.body);
    expect(await things()).toBe(1);

    // Held past the repeat's wait (1 s here, 5 s in production): 409 with the reason, and still one write in the end.
    let release = () => {};
    gate = new Promise<void>((resolve) => (release = resolve));
    const held = post(app, '/api/things/slow', 'alice', { name: 'Held' }, 'key-4');
    await expect.poll(async () => (await requests.pool.query('SELECT 1 FROM "idempotent_requests" WHERE "key" = $1', ['key-4'])).rowCount).toBe(1);
    const busy = await post(app, '/api/things/slow', 'alice', { name: 'Held' }, 'key-4');
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toMatchObject({ field: 'Idempotency-Key', message: expect.stringMatching(/still being processed/) });
    release();
    expect((await held).statusCode).toBe(201);
    expect(await things()).toBe(2);
  });

  it('drops the claim of an answer not worth keeping (503): the repeat runs and is kept', async () => {
    const app = server();
    brokenCalls = 0;
    const first = await post(app, '/api/things/broken', 'alice', { name: 'Retry' }, 'key-5');
    expect(first.statusCode).toBe(503);
    const second = await post(app, '/api/things/broken', 'alice', { name: 'Retry' }, 'key-5');
    expect(second.statusCode).toBe(204);
    const third = await post(app, '/api/things/broken', 'alice', { name: 'Retry' }, 'key-5');
    expect(third.statusCode).toBe(204);
    expect(third.headers['idempotent-replayed']).toBe('true');
    expect(brokenCalls).toBe(2);
    expect(await things()).toBe(1);
  });

  it('forgets an answer after 24 hours, and takes over a claim whose request died unanswered', async () => {
    const app = server();
    await post(app, '/api/things', 'alice', { name: 'Old' }, 'key-6');
    clock.advance(24 * 3600_000 + 1);
    const later = await post(app, '/api/things', 'alice', { name: 'Old' }, 'key-6');
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(await things()).toBe(2);
    // A claim left by a process that died (no answer, lease passed): a repeat runs.
    await requests.pool.query(
      `INSERT INTO "idempotent_requests" (scope, key, fingerprint, locked_until, created_at) VALUES ('alice places.create', 'key-7', 'x', $1, $1)`,
      [new Date(clock.now().getTime() - 1000)],
    );
    const taken = await post(app, '/api/things', 'alice', { name: 'Orphan' }, 'key-7');
    expect(taken.statusCode).toBe(201);
    expect(await things()).toBe(3);
  });

  it('keeps no answer of a credential route (it holds a token): the key is ignored and a repeat runs again', async () => {
    const app = server();
    await post(app, '/api/things/sign-in', 'alice', { name: 'Token' }, 'key-8');
    const again = await post(app, '/api/things/sign-in', 'alice', { name: 'Token' }, 'key-8');
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await things()).toBe(2);
    expect((await requests.pool.query('SELECT 1 FROM "idempotent_requests" WHERE "key" = $1', ['key-8'])).rowCount).toBe(0);
  });

  it('refuses a key that is not 1 to 255 visible characters', async () => {
    const app = server();
    const long = await post(app, '/api/things', 'alice', { name: 'Pint' }, 'k'.repeat(256));
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ field: 'Idempotency-Key' });
    expect(await things()).toBe(0);
  });
});
