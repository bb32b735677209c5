import type { Album, AuthResponse, DmMessage, FeedSession, Review, SessionComment } from '@hoptrack/proto';
import { eventually } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, expectApi, logSessionViaApi, registerUser, type RegisteredUser } from '@hoptrack/testing/api';
import { startStack, type Stack } from '@hoptrack/testing/stack';

/**
 * Issue 9, item 20: SQL and script payloads in every text field and search
 * parameter are stored and returned as the exact text, and searches treat
 * them as text (no error, no match-everything). The browser side (shown as
 * text, never run) is in web/e2e/injection.test.ts.
 */
export const PAYLOADS = [
  "Robert'); DROP TABLE users; --",
  "' OR '1'='1",
  '<script>window.__pwned = true</script>',
  '<img src=x onerror="window.__pwned=true">',
  '%_\\%',
  '{{constructor.constructor("return 1")()}}',
];

let stack: Stack;
let alice: RegisteredUser;
let bob: RegisteredUser;

beforeAll(async () => {
  stack = await startStack({ serveWeb: false });
  alice = await registerUser(stack.baseUrl, 'injalice');
  bob = await registerUser(stack.baseUrl, 'injbob');
  await eventually(async () => (await callApi(stack.baseUrl, alice.token, 'GET', `/api/messages/${bob.id}`)).status === 200, 'messaging knows bob', 15_000);
});
afterAll(async () => {
  await stack?.stop();
});

describe.each(PAYLOADS)('payload %s', (payload) => {
  it('is stored and returned as the exact text in every kind of writing', async () => {
    const me = (await expectApi(stack.baseUrl, alice.token, 'PATCH', '/api/me', { displayName: payload.slice(0, 50), bio: payload })) as AuthResponse['user'];
    expect(me).toMatchObject({ displayName: payload.slice(0, 50), bio: payload });

    const session: FeedSession = await logSessionViaApi(stack.baseUrl, alice, { title: payload, description: payload, location: payload });
    expect(session).toMatchObject({ title: payload, description: payload, location: payload });
    const comment = (await expectApi(stack.baseUrl, alice.token, 'POST', `/api/sessions/${session.id}/comments`, { content: payload })) as SessionComment;
    expect(comment.content).toBe(payload);
    const reread = (await expectApi(stack.baseUrl, alice.token, 'GET', `/api/sessions/${session.id}`)) as FeedSession;
    expect(reread.comments.map((c) => c.content)).toContain(payload);

    const album = (await expectApi(stack.baseUrl, alice.token, 'POST', '/api/albums', { name: payload.slice(0, 100), description: payload }, 201)) as Album;
    expect(album).toMatchObject({ name: payload.slice(0, 100), description: payload });

    const message = (await expectApi(stack.baseUrl, alice.token, 'POST', '/api/messages', { toUserId: bob.id, content: payload }, 201)) as DmMessage;
    expect(message.content).toBe(payload);
    const thread = (await expectApi(stack.baseUrl, bob.token, 'GET', `/api/messages/${alice.id}`)) as DmMessage[];
    expect(thread.at(-1)?.content).toBe(payload);
  });

  it('is searched for as text: no error, and no match-everything', async () => {
    const q = encodeURIComponent(payload);
    for (const path of [`/api/users/search?q=${q}`, `/api/bars/search?q=${q}`, `/api/beers/search?q=${q}`]) {
      const res = await callApi(stack.baseUrl, alice.token, 'GET', path);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
      // Whatever is found must hold the payload as text (people named with it in this or earlier runs), nothing else.
      const found = (Array.isArray(res.body) ? res.body : []) as Array<{ displayName?: string; username?: string; name?: string }>;
      const holds = (r: (typeof found)[number]) => [r.displayName, r.username, r.name].some((text) => text?.toLowerCase().includes(payload.slice(0, 50).toLowerCase()));
      expect(found.filter((r) => !holds(r)), path).toEqual([]);
    }
  });
});

it('a review with every payload reads back as written', async () => {
  const bars = (await expectApi(stack.baseUrl, alice.token, 'GET', '/api/bars')) as Array<{ id: string }>;
  for (const [i, payload] of PAYLOADS.entries()) {
    const reviewer = i === 0 ? alice : await registerUser(stack.baseUrl, `injrev${i}`);
    const review = (await expectApi(stack.baseUrl, reviewer.token, 'POST', `/api/bars/${bars[0]?.id}/reviews`, { rating: 3, reviewText: payload }, 201)) as Review;
    expect(review.reviewText).toBe(payload);
  }
  // The tables are all still there: the DROP TABLE payloads were only text.
  expect((await callApi(stack.baseUrl, alice.token, 'GET', '/api/me')).status).toBe(200);
});
