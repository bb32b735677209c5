import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestsDatabase } from './requests-db';
import { z } from 'zod';
import { authResponse, feedSession, type FeedSession } from '@hoptrack/proto';
import { compileReplySerializer } from '../src/http/reply-serializer';
import { defineRoutes, publicAccess } from '@hoptrack/proto';
import { mountRoutes } from '../src/http/routes';
import { createServer } from '../src/http/server';
import { createMetrics } from '../src/http/metrics';
import { createLogger } from '../src/logger';

/** The platform's idempotent-requests table, which every mounted write keeps its Idempotency-Key answers in. */
let requests: Awaited<ReturnType<typeof requestsDatabase>>;
beforeAll(async () => {
  requests = await requestsDatabase('runtime_serializer');
});
afterAll(() => requests.close());

/**
 * The compiled reply serializer must write exactly what re-validating with
 * zod and JSON.stringify wrote before it (issue 21): the same properties in
 * the same order, nulls kept, undeclared properties (a password hash) dropped.
 */
const person = (n: number) => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  username: `user${n}`,
  displayName: `User ${n}`,
  profilePicture: n % 2 ? null : `https://cdn.example/p${n}.jpg`,
  avatar: null,
  // Not in the contract: must never be written.
  passwordHash: '$argon2id$secret',
});

function card(overrides: Partial<Record<keyof FeedSession, unknown>> = {}): Record<string, unknown> {
  return {
    id: '10000000-0000-4000-8000-000000000001',
    userId: person(1).id,
    user: person(1),
    title: 'Friday "pints" \u2028 with a \\ and ünïcödé 🍺',
    description: null,
    location: 'The Crown',
    latitude: '51.5',
    longitude: null,
    photo: null,
    photos: [],
    beerCount: 3,
    duration: 90,
    avgAbv: '4.5',
    beerTypes: ['IPA', 'Stout'],
    musicTrack: { id: 't1', name: 'Song', artist: 'Band', album: null, duration: 200, imageUrl: null, service: 'manual', externalUrl: null, extra: 'x' },
    likeCount: 2,
    commentCount: 1,
    isLikedByCurrentUser: true,
    likes: [{ id: '20000000-0000-4000-8000-000000000001', userId: person(2).id, user: person(2), internalNote: 'no' }],
    comments: [{ id: '30000000-0000-4000-8000-000000000001', sessionId: '10000000-0000-4000-8000-000000000001', userId: person(3).id, content: 'Cheers', createdAt: '2026-11-24T10:00:00.000Z', editedAt: null, user: person(3) }],
    reactions: [{ emoji: '🍻', count: 1, users: [{ id: person(2).id, displayName: 'User 2', email: 'hidden@example.com' }] }],
    createdAt: '2026-11-24T09:00:00.000Z',
    updatedAt: '2026-11-24T09:30:00.000Z',
    authorEmail: 'also-hidden@example.com',
    ...overrides,
  };
}

const viaZod = (schema: z.ZodType, data: unknown) => JSON.stringify(schema.parse(data));

describe('compiled reply serializer', () => {
  const page = compileReplySerializer(z.array(feedSession), 'GET /api/sessions 200');

  it('writes a feed page exactly as zod parse + JSON.stringify did', () => {
    const samples = [[card()], [card({ musicTrack: null, photo: 'https://cdn.example/s.jpg', likes: [], comments: [], reactions: [] }), card({ description: 'Quiet one' })], []];
    for (const sample of samples) expect(page(sample)).toBe(viaZod(z.array(feedSession), sample));
  });

  it('never writes a property the contract does not name', () => {
    const out = page([card()]);
    for (const secret of ['passwordHash', 'internalNote', 'hidden@example.com', 'authorEmail', '"extra"']) expect(out).not.toContain(secret);
    const auth = compileReplySerializer(authResponse, 'POST /api/auth/login 200');
    const user = { ...person(1), email: 'a@example.com', bio: null, isProfilePrivate: false, allowDirectMessages: true, showOnlineStatus: true, showEmailToFriends: false, socialMediaPublic: false, isEmailVerified: false, pendingEmail: null, roles: [], createdAt: 'x', joinDate: 'y', emailVerificationToken: 'tok', tokenVersion: 3 };
    const written = JSON.parse(auth({ token: 't', message: 'ok', user })) as { user: Record<string, unknown> };
    expect(Object.keys(written.user)).toEqual(Object.keys(authResponse.shape.user.shape));
  });

  it('keeps null where the contract allows it, for strings, objects and arrays', () => {
    const schema = z.object({ a: z.string().nullable(), b: z.object({ c: z.number() }).nullable(), d: z.array(z.string()).nullable(), e: z.number().int().nullable() });
    const write = compileReplySerializer(schema, 'test');
    for (const value of [{ a: null, b: null, d: null, e: null }, { a: 'x', b: { c: 1.5 }, d: ['y'], e: 7 }]) expect(write(value)).toBe(viaZod(schema, value));
  });

  it('fails a reply that lacks a required property rather than send half an object', () => {
    const { title: _title, ...untitled } = card();
    expect(() => page([untitled])).toThrow(/title/);
  });

  it('refuses, at compile time and naming the route, a reply schema only parsing could run', () => {
    const transformed = z.object({ n: z.string().transform(Number) });
    expect(() => compileReplySerializer(transformed, 'GET /api/odd 200')).toThrow(/GET \/api\/odd 200/);
  });

  it('is what a service built on the runtime answers with', async () => {
    const app = createServer({ logger: createLogger('serializer-test', 'silent'), metrics: createMetrics('serializer-test') });
    const table = defineRoutes('sessions', {
      page: { method: 'GET', path: '/page', summary: 'a page of cards', access: publicAccess('a test route'), responses: { 200: z.array(feedSession) } },
    });
    mountRoutes(app, table, { page: async () => [card()] as unknown as FeedSession[] }, { authenticate: async () => undefined, db: requests.db });
    const res = await app.inject({ method: 'GET', url: '/page' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(viaZod(z.array(feedSession), [card()]));
    await app.close();
  });
});
