import { randomUUID } from 'node:crypto';
import { NEXT_CURSOR_HEADER, type Conversation, type ConversationMessage, type ConversationReadResponse, type DmMessage } from '@hoptrack/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, dm, expectError, listedWith, messagesOf, ok, pair, say, start } from './helpers';
import { startTestMessaging, type Client, type TestMessaging } from './support';

let t: TestMessaging;
beforeAll(async () => {
  t = await startTestMessaging();
});
afterAll(() => t?.close());

const person = (client: Client, displayName: string) => ({
  id: client.id,
  username: `u${client.id.slice(0, 8)}`,
  displayName,
  profilePicture: null,
  avatar: null,
});

/** Walks every page of `url` with `limit`, following the next-cursor header; returns the pages' ids. */
async function walk(client: Client, url: string, limit: number): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 20; i++) {
    const res = await client.get(`${url}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    pages.push(ok<Array<{ id: string }>>(res).map((x) => x.id));
    const next = res.headers[NEXT_CURSOR_HEADER];
    if (next === undefined) return pages;
    expect(typeof next).toBe('string');
    cursor = next as string;
  }
  throw new Error('pagination did not end');
}

describe('POST /api/conversations', () => {
  it('creates the conversation (201) with both people, then answers the same one (200) to either of them', async () => {
    const alice = await t.user({ displayName: 'Alice' });
    const bob = await t.user({ displayName: 'Bob' });
    const created = ok<Conversation>(await alice.post('/api/conversations', { participantId: bob.id }), 201);
    expect(created).toMatchObject({
      participant1Id: alice.id,
      participant2Id: bob.id,
      participant1: person(alice, 'Alice'),
      participant2: person(bob, 'Bob'),
      unreadCount: 0,
      lastMessage: null,
      lastMessageAt: null,
      canMessage: true,
    });
    expect(Number.isNaN(Date.parse(created.createdAt))).toBe(false);

    const again = ok<Conversation>(await alice.post('/api/conversations', { participantId: bob.id }), 200);
    expect(again).toEqual(created);
    // One conversation per pair, whoever starts it: Bob gets Alice's, still with Alice as its starter.
    const fromBob = ok<Conversation>(await bob.post('/api/conversations', { participantId: alice.id }), 200);
    expect(fromBob).toMatchObject({ id: created.id, participant1Id: alice.id, participant2Id: bob.id });
    expect(await t.prisma.conversation.count({ where: { OR: [{ participant1Id: alice.id }, { participant2Id: alice.id }] } })).toBe(1);
  });

  it('answers an existing conversation with its last message and the viewer’s unread count', async () => {
    const [alice, bob] = await pair(t);
    const conversation = await start(alice, bob);
    await say(alice, conversation.id, 'one');
    const last = await say(alice, conversation.id, 'two');
    const seenByBob = ok<Conversation>(await bob.post('/api/conversations', { participantId: alice.id }), 200);
    expect(seenByBob).toMatchObject({
      id: conversation.id,
      unreadCount: 2,
      lastMessage: { id: last.id, content: 'two', senderId: alice.id, createdAt: last.createdAt },
      lastMessageAt: last.createdAt,
    });
    expect(ok<Conversation>(await alice.post('/api/conversations', { participantId: bob.id })).unreadCount).toBe(0);
  });

  it('two people starting it at the same moment get one conversation', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = await pair(t);
      const [ab, ba] = await Promise.all([a.post('/api/conversations', { participantId: b.id }), b.post('/api/conversations', { participantId: a.id })]);
      expect([ab.statusCode, ba.statusCode].sort(), `${ab.body} ${ba.body}`).toEqual([200, 201]);
      expect(ab.json<Conversation>().id).toBe(ba.json<Conversation>().id);
      expect(await t.prisma.conversation.count({ where: { OR: [{ participant1Id: a.id }, { participant2Id: a.id }] } })).toBe(1);
    }
  });

  it('two people writing each other first at the same moment share one conversation', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = await pair(t);
      const [ab, ba] = await Promise.all([a.post('/api/messages', { toUserId: b.id, content: 'hi from a' }), b.post('/api/messages', { toUserId: a.id, content: 'hi from b' })]);
      expect([ab.statusCode, ba.statusCode], `${ab.body} ${ba.body}`).toEqual([201, 201]);
      const rows = await t.prisma.conversation.findMany({ where: { OR: [{ participant1Id: a.id }, { participant2Id: a.id }] } });
      expect(rows).toHaveLength(1);
      const listed = await messagesOf(a, rows[0]!.id);
      expect(listed.map((m) => m.content).sort()).toEqual(['hi from a', 'hi from b']);
    }
  });
});

describe('GET /api/conversations', () => {
  it('lists the viewer’s conversations latest activity first, with people, last message, unread count and canMessage', async () => {
    const alice = await t.user({ displayName: 'Alice' });
    const bob = await t.user({ displayName: 'Bob' });
    const carol = await t.user({ displayName: 'Carol' });
    const dora = await t.user({ displayName: 'Dora' });
    const withBob = await start(alice, bob); // empty: ordered by when it was started
    const fromDora = await dm(dora, alice, 'Hi Alice, Dora here');
    const withCarol = await start(alice, carol);
    const toCarol = await say(alice, withCarol.id, 'Carol, pints?');
    const replyToDora = await dm(alice, dora, 'Hi Dora!');

    const withDora = await t.prisma.conversation.findFirstOrThrow({ where: { participant1Id: dora.id } });
    expect(fromDora).toMatchObject({ fromUserId: dora.id, toUserId: alice.id });
    const list = await conversations(alice);
    expect(list.map((c) => c.id)).toEqual([withDora.id, withCarol.id, withBob.id]);
    const [doraRow, carolRow, bobRow] = list as [Conversation, Conversation, Conversation];
    expect(doraRow).toMatchObject({
      participant1Id: dora.id,
      participant2Id: alice.id,
      participant1: person(dora, 'Dora'),
      participant2: person(alice, 'Alice'),
      unreadCount: 1, // Dora's message; Alice's own reply does not count
      lastMessage: { id: replyToDora.id, content: 'Hi Dora!', senderId: alice.id, createdAt: replyToDora.createdAt },
      lastMessageAt: replyToDora.createdAt,
      canMessage: true,
    });
    expect(Date.parse(replyToDora.createdAt)).toBeGreaterThan(Date.parse(fromDora.createdAt));
    expect(carolRow).toMatchObject({
      participant1: person(alice, 'Alice'),
      participant2: person(carol, 'Carol'),
      unreadCount: 0,
      lastMessage: { id: toCarol.id, content: 'Carol, pints?', senderId: alice.id },
      lastMessageAt: toCarol.createdAt,
    });
    expect(bobRow).toMatchObject({ participant2: person(bob, 'Bob'), unreadCount: 0, lastMessage: null, lastMessageAt: null, canMessage: true });

    // A new message moves a conversation to the top.
    await say(bob, withBob.id, 'Bob was here');
    expect((await conversations(alice)).map((c) => c.id)).toEqual([withBob.id, doraRow.id, withCarol.id]);
  });

  it('an empty conversation is listed only for whoever started it, until the first message', async () => {
    const [alice, bob] = await pair(t);
    const conversation = await start(alice, bob);
    expect((await conversations(alice)).map((c) => c.id)).toEqual([conversation.id]);
    expect(await conversations(bob)).toEqual([]);
    await say(alice, conversation.id, 'Hello?');
    expect((await conversations(bob)).map((c) => c.id)).toEqual([conversation.id]);
  });

  it('pages by x-next-cursor and ?cursor, newest first, without gaps or repeats', async () => {
    const viewer = await t.user();
    for (let i = 0; i < 5; i++) await dm(await t.user(), viewer, `message ${i}`);
    const all = (await conversations(viewer)).map((c) => c.id);
    expect(all).toHaveLength(5);
    const pages = await walk(viewer, '/api/conversations', 2);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(all);
    // Exactly a full last page: no cursor after it.
    const exact = await walk(viewer, '/api/conversations', 5);
    expect(exact).toEqual([all]);
    const first = await viewer.get('/api/conversations?limit=5');
    expect(first.headers[NEXT_CURSOR_HEADER]).toBeUndefined();
  });

  it('refuses a malformed cursor and a limit out of bounds', async () => {
    const viewer = await t.user();
    expectError(await viewer.get('/api/conversations?cursor=nonsense'), 400, { field: 'cursor' });
    expectError(await viewer.get('/api/conversations?cursor=123_not-a-uuid'), 400, { field: 'cursor' });
    expectError(await viewer.get('/api/conversations?limit=0'), 400, { field: 'limit' });
    expectError(await viewer.get('/api/conversations?limit=101'), 400, { field: 'limit' });
    expectError(await viewer.get('/api/conversations?limit=abc'), 400, { field: 'limit' });
    expectError(await viewer.get('/api/conversations?limit=2.5'), 400, { field: 'limit' });
    expect(ok<Conversation[]>(await viewer.get('/api/conversations?limit=100'))).toEqual([]);
    expect(ok<Conversation[]>(await viewer.get('/api/conversations?limit=1'))).toEqual([]);
  });
});

describe('GET /api/conversations/:id/messages', () => {
  it('answers the messages oldest first, with their sender', async () => {
    const alice = await t.user({ displayName: 'Alice' });
    const bob = await t.user({ displayName: 'Bob' });
    const conversation = await start(alice, bob);
    expect(await messagesOf(alice, conversation.id)).toEqual([]);
    const m1 = await say(alice, conversation.id, 'first');
    const m2 = await say(bob, conversation.id, 'second');
    const m3 = await say(alice, conversation.id, 'third');
    const seen = await messagesOf(bob, conversation.id);
    expect(seen.map((m) => m.id)).toEqual([m1.id, m2.id, m3.id]);
    expect(seen[0]).toEqual({
      id: m1.id,
      conversationId: conversation.id,
      senderId: alice.id,
      sender: person(alice, 'Alice'),
      content: 'first',
      messageType: 'text',
      isRead: false,
      createdAt: m1.createdAt,
    } satisfies ConversationMessage);
    expect(seen[1]).toMatchObject({ senderId: bob.id, sender: person(bob, 'Bob') });
    expect(seen.map((m) => Date.parse(m.createdAt))).toEqual([...seen.map((m) => Date.parse(m.createdAt))].sort((x, y) => x - y));
    expect(await messagesOf(alice, conversation.id)).toEqual(seen);
  });

  it('pages back through older messages: newest page first, each page oldest first', async () => {
    const [alice, bob] = await pair(t);
    const conversation = await start(alice, bob);
    const sent: string[] = [];
    for (let i = 1; i <= 5; i++) sent.push((await say(i % 2 ? alice : bob, conversation.id, `m${i}`)).id);
    const pages = await walk(bob, `/api/conversations/${conversation.id}/messages`, 2);
    expect(pages).toEqual([[sent[3], sent[4]], [sent[1], sent[2]], [sent[0]]]);
    expect((await messagesOf(bob, conversation.id, '?limit=3')).map((m) => m.id)).toEqual(sent.slice(2));
    expect((await messagesOf(bob, conversation.id)).map((m) => m.id)).toEqual(sent);
  });

  it('refuses a malformed cursor and a limit out of bounds', async () => {
    const [alice, bob] = await pair(t);
    const { id } = await start(alice, bob);
    expectError(await alice.get(`/api/conversations/${id}/messages?cursor=abc`), 400, { field: 'cursor' });
    expectError(await alice.get(`/api/conversations/${id}/messages?limit=0`), 400, { field: 'limit' });
    expectError(await alice.get(`/api/conversations/${id}/messages?limit=101`), 400, { field: 'limit' });
    expectError(await alice.get(`/api/conversations/${id}/messages?limit=many`), 400, { field: 'limit' });
    expect(ok<ConversationMessage[]>(await alice.get(`/api/conversations/${id}/messages?limit=100`))).toEqual([]);
  });
});

describe('POST /api/conversations/:id/messages', () => {
  it('stores the trimmed message (201) and makes it the conversation’s last message', async () => {
    const alice = await t.user({ displayName: 'Alice' });
    const bob = await t.user();
    const conversation = await start(alice, bob);
    const sent = ok<ConversationMessage>(await alice.post(`/api/conversations/${conversation.id}/messages`, { content: '  \n Pints at six?\nAt the usual place  \t' }), 201);
    expect(sent).toMatchObject({
      conversationId: conversation.id,
      senderId: alice.id,
      sender: person(alice, 'Alice'),
      content: 'Pints at six?\nAt the usual place',
      messageType: 'text',
      isRead: false,
    });
    const stored = await t.prisma.message.findUniqueOrThrow({ where: { id: sent.id } });
    expect(stored).toMatchObject({ senderId: alice.id, recipientId: bob.id, content: 'Pints at six?\nAt the usual place', isRead: false, readAt: null });
    expect((await listedWith(bob, alice))?.lastMessage).toEqual({ id: sent.id, content: sent.content, senderId: alice.id, createdAt: sent.createdAt });
  });

  it('concurrent sends get distinct increasing times and the last message is the latest one', async () => {
    const [alice, bob] = await pair(t);
    const conversation = await start(alice, bob);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? bob : alice).post(`/api/conversations/${conversation.id}/messages`, { content: `burst ${i}` })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
    const listed = await messagesOf(alice, conversation.id);
    expect(listed).toHaveLength(8);
    const times = listed.map((m) => Date.parse(m.createdAt));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1]!);
    const newest = listed.at(-1)!;
    expect((await listedWith(alice, bob))?.lastMessage).toMatchObject({ id: newest.id, content: newest.content, createdAt: newest.createdAt });
  });
});

describe('PATCH /api/conversations/:id/read', () => {
  it('marks the messages to the viewer read, answers how many, and is idempotent', async () => {
    const [alice, bob] = await pair(t);
    const conversation = await start(alice, bob);
    await say(alice, conversation.id, 'one');
    await say(alice, conversation.id, 'two');
    await say(bob, conversation.id, 'from bob');
    await say(alice, conversation.id, 'three');
    expect((await listedWith(bob, alice))?.unreadCount).toBe(3);
    expect((await listedWith(alice, bob))?.unreadCount).toBe(1);

    expect(ok<ConversationReadResponse>(await bob.patch(`/api/conversations/${conversation.id}/read`))).toEqual({
      conversationId: conversation.id,
      markedRead: 3,
      unreadCount: 0,
    });
    expect((await listedWith(bob, alice))?.unreadCount).toBe(0);
    expect((await messagesOf(bob, conversation.id)).map((m) => [m.content, m.isRead])).toEqual([
      ['one', true],
      ['two', true],
      ['from bob', false], // Bob's own message waits for Alice
      ['three', true],
    ]);
    expect((await listedWith(alice, bob))?.unreadCount).toBe(1);
    const readRows = await t.prisma.message.findMany({ where: { conversationId: conversation.id, recipientId: bob.id } });
    expect(readRows.every((m) => m.isRead && m.readAt !== null)).toBe(true);

    expect(ok<ConversationReadResponse>(await bob.patch(`/api/conversations/${conversation.id}/read`))).toEqual({
      conversationId: conversation.id,
      markedRead: 0,
      unreadCount: 0,
    });
    // Only new messages count the next time.
    await say(alice, conversation.id, 'four');
    expect(ok<ConversationReadResponse>(await bob.patch(`/api/conversations/${conversation.id}/read`)).markedRead).toBe(1);
    expect(ok<ConversationReadResponse>(await alice.patch(`/api/conversations/${conversation.id}/read`)).markedRead).toBe(1);
    expect((await listedWith(alice, bob))?.unreadCount).toBe(0);
  });

  it('marking an empty conversation read marks nothing', async () => {
    const [alice, bob] = await pair(t);
    const conversation = await start(alice, bob);
    expect(ok<ConversationReadResponse>(await alice.patch(`/api/conversations/${conversation.id}/read`))).toEqual({ conversationId: conversation.id, markedRead: 0, unreadCount: 0 });
    expect(ok<ConversationReadResponse>(await bob.patch(`/api/conversations/${conversation.id}/read`)).markedRead).toBe(0);
  });
});

describe('a conversation is its two participants’ business', () => {
  it('someone else gets 404 reading, writing or marking it read, and changes nothing', async () => {
    const [alice, bob] = await pair(t);
    const eve = await t.user();
    const conversation = await start(alice, bob);
    const sent = await say(alice, conversation.id, 'private');
    expectError(await eve.get(`/api/conversations/${conversation.id}/messages`), 404);
    expectError(await eve.post(`/api/conversations/${conversation.id}/messages`, { content: 'let me in' }), 404);
    expectError(await eve.patch(`/api/conversations/${conversation.id}/read`), 404);
    expectError(await eve.put(`/api/messages/${sent.id}/read`), 404);
    expect(await t.prisma.message.count({ where: { conversationId: conversation.id } })).toBe(1);
    expect(await t.prisma.message.findUniqueOrThrow({ where: { id: sent.id } })).toMatchObject({ isRead: false, readAt: null });
    expect(await conversations(eve)).toEqual([]);
  });

  it('an unknown conversation is 404 everywhere', async () => {
    const alice = await t.user();
    const unknown = randomUUID();
    expectError(await alice.get(`/api/conversations/${unknown}/messages`), 404, { message: 'Conversation not found' });
    expectError(await alice.post(`/api/conversations/${unknown}/messages`, { content: 'hello?' }), 404);
    expectError(await alice.patch(`/api/conversations/${unknown}/read`), 404);
  });
});

describe('sending keeps DM shape and conversation shape in step', () => {
  it('the thread API’s answer to a send names the same message the conversation API lists', async () => {
    const [alice, bob] = await pair(t);
    const sent: DmMessage = await dm(alice, bob, 'via threads');
    const conversation = (await listedWith(alice, bob))!;
    expect((await messagesOf(bob, conversation.id)).map((m) => ({ id: m.id, senderId: m.senderId, createdAt: m.createdAt }))).toEqual([
      { id: sent.id, senderId: alice.id, createdAt: sent.createdAt },
    ]);
  });
});
