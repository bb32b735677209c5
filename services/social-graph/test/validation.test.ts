import { createTokenService, DEV_SIGNING_KEY, generateSigningKey } from '@hoptrack/runtime';
import type { OtherUser } from '@hoptrack/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, ok } from './helpers';
import { startTestSocial, type TestSocial, type TestUser } from './support';

let social: TestSocial;
let me: TestUser;
let other: TestUser;
beforeAll(async () => {
  social = await startTestSocial();
  me = await social.user();
  other = await social.user();
});
afterAll(() => social.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const ID = '00000000-0000-4000-8000-000000000001';

/** Every route of the service, with a well-formed call. */
const ENDPOINTS: Array<[Method, string, object?]> = [
  ['GET', '/api/users/search?q=abc'],
  ['GET', `/api/users/${ID}`],
  ['GET', '/api/users/profile/someone'],
  ['GET', `/api/users/${ID}/stats`],
  ['GET', `/api/users/${ID}/followers`],
  ['GET', `/api/users/${ID}/following`],
  ['GET', '/api/me/stats'],
  ['POST', '/api/friendships', { friendId: ID }],
  ['PATCH', `/api/friendships/${ID}`, { action: 'accept' }],
  ['GET', '/api/friends'],
  ['GET', '/api/me/friends'],
  ['GET', '/api/friends/pinned'],
  ['GET', '/api/friends/requests'],
  ['GET', '/api/me/friend-requests'],
  ['GET', '/api/friends/blocked'],
  ['DELETE', `/api/friends/${ID}`],
  ['POST', `/api/friends/${ID}/block`, {}],
  ['DELETE', `/api/friends/${ID}/block`],
  ['POST', `/api/friends/${ID}/mute`],
  ['DELETE', `/api/friends/${ID}/mute`],
  ['POST', `/api/friends/${ID}/pin`, {}],
  ['DELETE', `/api/friends/${ID}/pin`],
];

const call = (method: Method, url: string, body?: object, authorization?: string) =>
  social.app.inject({ method, url, ...(authorization ? { headers: { authorization } } : {}), ...(body ? { payload: body } : {}) });

describe('authentication', () => {
  it.each(ENDPOINTS)('%s %s without a token → 401', async (method, url, body) => {
    expectError(await call(method, url, body), 401, { message: 'Authentication required' });
  });

  it.each([
    { name: 'a garbage token', header: async () => 'Bearer not.a.jwt' },
    { name: 'a token signed with a key not in the JWKS', header: async () => `Bearer ${await (await createTokenService({ keys: [await generateSigningKey('another-key')] })).sign({ userId: me.id, tokenVersion: 0 })}` },
    { name: 'an expired token', header: async () => `Bearer ${await (await createTokenService({ keys: [DEV_SIGNING_KEY], expiresIn: '1s', clock: () => new Date(Date.now() - 60_000)  })).sign({ userId: me.id, tokenVersion: 0 })}` },
    { name: 'a non-bearer scheme', header: async () => `Basic ${Buffer.from('a:b').toString('base64')}` },
  ])('refuses $name with 401', async ({ header }) => {
    expectError(await call('GET', '/api/friends', undefined, await header()), 401);
  });

  it('accepts the same call with a valid token (the 401s above are about the token)', async () => {
    ok(await call('GET', '/api/friends', undefined, `Bearer ${me.token}`));
  });
});

describe('malformed ids → 400 naming the field', () => {
  const BAD = ['not-a-uuid', '123', '00000000-0000-0000-0000-00000000000g'];
  const ROUTES: Array<[Method, (id: string) => string, object?]> = [
    ['GET', (id) => `/api/users/${id}`],
    ['GET', (id) => `/api/users/${id}/stats`],
    ['GET', (id) => `/api/users/${id}/followers`],
    ['GET', (id) => `/api/users/${id}/following`],
    ['PATCH', (id) => `/api/friendships/${id}`, { action: 'accept' }],
    ['DELETE', (id) => `/api/friends/${id}`],
    ['POST', (id) => `/api/friends/${id}/block`, {}],
    ['DELETE', (id) => `/api/friends/${id}/block`],
    ['POST', (id) => `/api/friends/${id}/mute`],
    ['DELETE', (id) => `/api/friends/${id}/mute`],
    ['POST', (id) => `/api/friends/${id}/pin`, {}],
    ['DELETE', (id) => `/api/friends/${id}/pin`],
  ];
  it.each(ROUTES.flatMap(([method, url, body]) => BAD.map((bad) => ({ method, url: url(bad), body }))))('$method $url', async ({ method, url, body }) => {
    expectError(await call(method, url, body, `Bearer ${me.token}`), 400, { field: 'id', message: 'Must be a valid id' });
  });

  it.each(BAD)('POST /api/friendships {friendId: %s}', async (bad) => {
    expectError(await call('POST', '/api/friendships', { friendId: bad }, `Bearer ${me.token}`), 400, { field: 'friendId' });
  });
});

describe('bodies', () => {
  it.each([
    { name: 'PATCH with no action', url: () => `/api/friendships/${ID}`, method: 'PATCH', body: {}, field: 'action' },
    { name: 'PATCH with an unknown action', url: () => `/api/friendships/${ID}`, method: 'PATCH', body: { action: 'ignore' }, field: 'action' },
    { name: 'a block reason over 200 characters', url: () => `/api/friends/${other.id}/block`, method: 'POST', body: { reason: 'r'.repeat(201) }, field: 'reason' },
    { name: 'a friendId that is not a string', url: () => '/api/friendships', method: 'POST', body: { friendId: 42 }, field: 'friendId' },
  ] as const)('$name → 400 naming $field', async ({ url, method, body, field }) => {
    expectError(await call(method, url(), body, `Bearer ${me.token}`), 400, { field });
  });
});

describe('pin order', () => {
  // Each failure says its own reason (a schema-wide zod `error` once answered every one with the first).
  it.each([
    [{ order: 'first' }, 'order must be a number'],
    [{ order: null }, 'order must be a number'],
    [{ order: 1.5 }, 'order must be a whole number'],
    [{ order: -1 }, 'order must be 0 or more'],
  ])('%j → 400 %s', async (body, message) => {
    expectError(await call('POST', `/api/friends/${other.id}/pin`, body, `Bearer ${me.token}`), 400, { field: 'order', message });
  });
});

describe('search and list queries', () => {
  const q100 = 'q'.repeat(100);
  it.each([
    { query: `q=${'q'.repeat(101)}`, field: 'q', message: 'Search query must be at most 100 characters' },
    { query: 'q=', field: 'q', message: 'q is required' },
    { query: 'q=%20%20%20', field: 'q', message: 'q is required' },
    { query: '', field: 'q', message: 'q is required' },
    { query: 'q=abc&limit=51', field: 'limit', message: 'limit must be at most 50' },
    { query: 'q=abc&limit=0', field: 'limit' },
    { query: 'q=abc&limit=ten', field: 'limit' },
    { query: 'q=abc&limit=2.5', field: 'limit' },
    { query: 'q=abc&offset=-1', field: 'offset' },
  ])('GET /api/users/search?$query → 400 ($field)', async ({ query, field, message }) => {
    expectError(await call('GET', `/api/users/search?${query}`, undefined, `Bearer ${me.token}`), 400, { field, message });
  });

  it.each([`q=${q100}`, 'q=abc&limit=50', 'q=a&limit=1&offset=0'])('GET /api/users/search?%s is within bounds → 200', async (query) => {
    expect(Array.isArray(ok<OtherUser[]>(await call('GET', `/api/users/search?${query}`, undefined, `Bearer ${me.token}`)))).toBe(true);
  });

  it.each(['followers', 'following'])('GET /api/users/{id}/%s pages within bounds only', async (kind) => {
    const url = `/api/users/${other.id}/${kind}`;
    expectError(await call('GET', `${url}?limit=51`, undefined, `Bearer ${me.token}`), 400, { field: 'limit', message: 'limit must be at most 50' });
    expectError(await call('GET', `${url}?offset=-1`, undefined, `Bearer ${me.token}`), 400, { field: 'offset' });
    ok(await call('GET', `${url}?limit=50`, undefined, `Bearer ${me.token}`));
  });

  it('refuses a username over 30 characters', async () => {
    expectError(await call('GET', `/api/users/profile/${'u'.repeat(31)}`, undefined, `Bearer ${me.token}`), 400, { field: 'username' });
  });
});
