import { randomUUID } from 'node:crypto';
import { LIVE_EVENTS_PATH, MESSAGE_MAX, type Conversation, type ConversationMessage } from '@hoptrack/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dm, expectError, ok, pair, start } from './helpers';
import { startTestMessaging, type Client, type TestMessaging } from './support';

let t: TestMessaging;
beforeAll(async () => {
  t = await startTestMessaging();
});
afterAll(() => t?.close());

const storedFrom = (sender: Client) => t.prisma.message.count({ where: { senderId: sender.id } });

describe('message content', () => {
  const bad: Array<[string, unknown, RegExp]> = [
    ['empty', '', /empty/],
    ['whitespace only', ' \n\t  ', /empty/],
    [`over ${MESSAGE_MAX} characters`, 'x'.repeat(MESSAGE_MAX + 1), new RegExp(`at most ${MESSAGE_MAX}`)],
    ['a number', 42, /content must be a string/],
    ['null', null, /content must be a string/],
    ['an object', { text: 'hi' }, /content must be a string/],
  ];

  it.each(bad)('%s is 400 on content in the conversation API, stores nothing', async (_name, content, message) => {
    const [alice, bob] = await pair(t);
    const { id } = await start(alice, bob);
    expectError(await alice.post(`/api/conversations/${id}/messages`, { content }), 400, { field: 'content', message });
    expect(await storedFrom(alice)).toBe(0);
  });

  it.each(bad)('%s is 400 on content in the thread API, stores nothing and starts no conversation', async (_name, content, message) => {
    const [alice, bob] = await pair(t);
    expectError(await alice.post('/api/messages', { toUserId: bob.id, content }), 400, { field: 'content', message });
    expect(await storedFrom(alice)).toBe(0);
    expect(await t.prisma.conversation.count({ where: { participant1Id: alice.id } })).toBe(0);
  });

  it(`exactly ${MESSAGE_MAX} characters is accepted by both APIs, also with whitespace around it`, async () => {
    const [alice, bob] = await pair(t);
    const { id } = await start(alice, bob);
    const longest = 'ab'.repeat(MESSAGE_MAX / 2);
    expect(ok<ConversationMessage>(await alice.post(`/api/conversations/${id}/messages`, { content: longest }), 201).content).toHaveLength(MESSAGE_MAX);
    expect(ok<ConversationMessage>(await alice.post(`/api/conversations/${id}/messages`, { content: `  ${longest}\n` }), 201).content).toBe(longest);
    expect((await dm(bob, alice, longest)).content).toBe(longest);
    expect(await t.prisma.message.count({ where: { conversationId: id } })).toBe(3);
  });

  it('a missing content or a missing body is 400', async () => {
    const [alice, bob] = await pair(t);
    const { id } = await start(alice, bob);
    expectError(await alice.post(`/api/conversations/${id}/messages`, {}), 400, { field: 'content', message: 'content is required' });
    expectError(await alice.post(`/api/conversations/${id}/messages`), 400);
    expectError(await alice.post('/api/messages', { toUserId: bob.id }), 400, { field: 'content' });
    expectError(await alice.post('/api/messages'), 400);
    expectError(await alice.post('/api/conversations'), 400);
    expectError(await alice.post('/api/conversations', {}), 400, { field: 'participantId' });
    expect(await storedFrom(alice)).toBe(0);
  });

  it('a body that is not JSON is 400', async () => {
    const [alice, bob] = await pair(t);
    const res = await t.primary.app.inject({
      method: 'POST',
      url: '/api/messages',
      headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
      payload: `{"toUserId":"${bob.id}","content":`,
    });
    expectError(res, 400);
    expect(await storedFrom(alice)).toBe(0);
  });
});

describe('whom one can address', () => {
  it('not yourself: 400 on participantId / toUserId', async () => {
    const alice = await t.user();
    expectError(await alice.post('/api/conversations', { participantId: alice.id }), 400, { field: 'participantId' });
    expectError(await alice.post('/api/messages', { toUserId: alice.id, content: 'note to self' }), 400, { field: 'toUserId' });
    expect(await t.prisma.conversation.count({ where: { participant1Id: alice.id } })).toBe(0);
  });

  it('a participantId / toUserId that is not a uuid is 400 on that field', async () => {
    const alice = await t.user();
    expectError(await alice.post('/api/conversations', { participantId: 'bob' }), 400, { field: 'participantId' });
    expectError(await alice.post('/api/conversations', { participantId: 12 }), 400, { field: 'participantId' });
    expectError(await alice.post('/api/messages', { toUserId: 'bob', content: 'hi' }), 400, { field: 'toUserId' });
  });

  it('someone the service does not know is 404, and nothing is created', async () => {
    const alice = await t.user();
    const nobody = randomUUID();
    expectError(await alice.post('/api/conversations', { participantId: nobody }), 404, { message: 'User not found' });
    expectError(await alice.post('/api/messages', { toUserId: nobody, content: 'hello?' }), 404);
    expectError(await alice.get(`/api/messages/${nobody}`), 404);
    expect(await t.prisma.conversation.count({ where: { participant1Id: alice.id } })).toBe(0);
    expect(await storedFrom(alice)).toBe(0);
  });
});

describe('path ids', () => {
  it('a non-uuid id in any path is 400 on id', async () => {
    const alice = await t.user();
    expectError(await alice.get('/api/conversations/abc/messages'), 400, { field: 'id' });
    expectError(await alice.post('/api/conversations/abc/messages', { content: 'hi' }), 400, { field: 'id' });
    expectError(await alice.patch('/api/conversations/abc/read'), 400, { field: 'id' });
    expectError(await alice.put('/api/messages/abc/read'), 400, { field: 'id' });
    expectError(await alice.get('/api/messages/abc'), 400, { field: 'otherUserId' });
  });
});

describe('cursors', () => {
  it.each([
    ['not in the cursor format', 'yesterday'],
    ['an id that only looks like a uuid', `1700000000000_${'-'.repeat(36)}`],
    ['a time beyond any date', `9999999999999999_${randomUUID()}`],
  ])('%s is 400 on cursor for every list', async (_name, cursor) => {
    const [alice, bob] = await pair(t);
    const { id } = await start(alice, bob);
    const q = `?cursor=${encodeURIComponent(cursor)}`;
    expectError(await alice.get(`/api/conversations${q}`), 400, { field: 'cursor' });
    expectError(await alice.get(`/api/messages${q}`), 400, { field: 'cursor' });
    expectError(await alice.get(`/api/conversations/${id}/messages${q}`), 400, { field: 'cursor' });
    expectError(await alice.get(`/api/messages/${bob.id}${q}`), 400, { field: 'cursor' });
  });

  it('a well-formed cursor from nowhere is just a position: older rows only', async () => {
    const [alice, bob] = await pair(t);
    const { id } = await start(alice, bob);
    await dm(alice, bob, 'now');
    const past = `?cursor=${encodeURIComponent(`1000_${randomUUID()}`)}`;
    expect(ok<Conversation[]>(await alice.get(`/api/conversations${past}`))).toEqual([]);
    expect(ok<ConversationMessage[]>(await alice.get(`/api/conversations/${id}/messages${past}`))).toEqual([]);
    const future = `?cursor=${encodeURIComponent(`${Date.now() + 60_000}_${randomUUID()}`)}`;
    expect(ok<Conversation[]>(await alice.get(`/api/conversations${future}`)).map((c) => c.id)).toEqual([id]);
  });
});

describe('authentication', () => {
  const endpoints = (conversationId: string, messageId: string, otherId: string): Array<[string, string, unknown?]> => [
    ['GET', '/api/conversations'],
    ['POST', '/api/conversations', { participantId: otherId }],
    ['GET', `/api/conversations/${conversationId}/messages`],
    ['POST', `/api/conversations/${conversationId}/messages`, { content: 'hi' }],
    ['PATCH', `/api/conversations/${conversationId}/read`],
    ['GET', '/api/messages'],
    ['GET', '/api/messages/unread'],
    ['GET', `/api/messages/${otherId}`],
    ['POST', '/api/messages', { toUserId: otherId, content: 'hi' }],
    ['PUT', `/api/messages/${messageId}/read`],
    ['GET', LIVE_EVENTS_PATH],
  ];

  it('every endpoint is 401 without a token or with a forged one', async () => {
    const [alice, bob] = await pair(t);
    const sent = await dm(alice, bob, 'hi');
    const conversation = (await t.prisma.conversation.findFirstOrThrow({ where: { participant1Id: alice.id } })).id;
    for (const [method, url, payload] of endpoints(conversation, sent.id, bob.id)) {
      for (const headers of [{}, { authorization: 'Bearer not-a-token' }, { authorization: alice.token }]) {
        const res = await t.primary.app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload: payload as object } : {}) });
        expect({ call: `${method} ${url}`, status: res.statusCode }).toEqual({ call: `${method} ${url}`, status: 401 });
        expect(res.json()).toMatchObject({ statusCode: 401 });
      }
    }
    expect(await t.prisma.message.count({ where: { conversationId: conversation } })).toBe(1);
  });

  it('a token older than the user’s current version (password reset) is 401; a current one works', async () => {
    const [alice, bob] = await pair(t);
    const sent = await dm(bob, alice, 'hi');
    const conversation = (await t.prisma.conversation.findFirstOrThrow({ where: { participant1Id: bob.id } })).id;
    expect((await alice.get('/api/conversations')).statusCode).toBe(200);
    await t.updateUser(alice, { tokenVersion: 1 });
    for (const res of [
      await alice.get('/api/conversations'),
      await alice.get('/api/messages/unread'),
      await alice.post('/api/messages', { toUserId: bob.id, content: 'with an old token' }),
      await alice.patch(`/api/conversations/${conversation}/read`),
      await alice.put(`/api/messages/${sent.id}/read`),
    ]) {
      expectError(res, 401);
    }
    expect(await storedFrom(alice)).toBe(0);
    expect(await t.prisma.message.findUniqueOrThrow({ where: { id: sent.id } })).toMatchObject({ isRead: false });

    const current = await t.as(alice.id, 1);
    expect(ok<Conversation[]>(await current.get('/api/conversations')).map((c) => c.id)).toEqual([conversation]);
    ok(await current.post('/api/messages', { toUserId: bob.id, content: 'with the new token' }), 201);
    // Bob's tokens are untouched.
    ok(await bob.get('/api/conversations'));
  });
});
