import { randomUUID } from 'node:crypto';
import { NEXT_CURSOR_HEADER, type Conversation, type ConversationReadResponse, type DmMessage, type DmThread, type UnreadSummary } from '@hoptrack/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, dm, expectError, listedWith, messagesOf, messagesWith, ok, pair, say, start, threads, unread } from './helpers';
import { startTestMessaging, type TestMessaging } from './support';

let t: TestMessaging;
beforeAll(async () => {
  t = await startTestMessaging();
});
afterAll(() => t?.close());

describe('POST /api/messages', () => {
  it('sends to a person (201), starting the conversation when there is none, with the content trimmed', async () => {
    const [alice, bob] = await pair(t);
    const sent = ok<DmMessage>(await alice.post('/api/messages', { toUserId: bob.id, content: '   Cheers!  ' }), 201);
    expect(sent).toEqual({
      id: sent.id,
      fromUserId: alice.id,
      toUserId: bob.id,
      content: 'Cheers!',
      messageType: 'text',
      isRead: false,
      readAt: null,
      createdAt: sent.createdAt,
    } satisfies DmMessage);
    const rows = await t.prisma.conversation.findMany({ where: { OR: [{ participant1Id: alice.id }, { participant2Id: alice.id }] } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ participant1Id: alice.id, participant2Id: bob.id, lastMessageId: sent.id });

    // The second message goes to the same conversation, whichever side writes.
    await dm(bob, alice, 'Cheers back');
    await dm(alice, bob, 'Again');
    expect(await t.prisma.conversation.count({ where: { OR: [{ participant1Id: alice.id }, { participant2Id: alice.id }] } })).toBe(1);
    expect(await t.prisma.message.count({ where: { conversationId: rows[0]!.id } })).toBe(3);
  });

  it('writes into a conversation started (empty) through the conversation API', async () => {
    const [alice, bob] = await pair(t);
    const conversation = await start(bob, alice);
    const sent = await dm(alice, bob, 'found you');
    expect((await messagesOf(bob, conversation.id)).map((m) => m.id)).toEqual([sent.id]);
  });
});

describe('GET /api/messages (threads)', () => {
  it('shows each conversation from the viewer’s side: the other user, the last message, unread state', async () => {
    const alice = await t.user({ displayName: 'Alice' });
    const bob = await t.user({ displayName: 'Bob' });
    const carol = await t.user({ displayName: 'Carol' });
    await dm(bob, alice, 'from Bob 1');
    const last = await dm(bob, alice, 'from Bob 2');
    const toCarol = await dm(alice, carol, 'to Carol');

    const list = await threads(alice);
    expect(list).toHaveLength(2);
    const [carolThread, bobThread] = list as [DmThread, DmThread];
    const bobConversation = (await listedWith(alice, bob))!;
    expect(bobThread).toEqual({
      id: bobConversation.id,
      otherUserId: bob.id,
      otherUserDisplayName: 'Bob',
      otherUserUsername: `u${bob.id.slice(0, 8)}`,
      otherUserProfilePicture: null,
      lastMessageContent: 'from Bob 2',
      lastMessageSenderId: bob.id,
      lastMessageAt: last.createdAt,
      hasUnreadMessages: true,
      unreadCount: 2,
      canMessage: true,
    } satisfies DmThread);
    expect(carolThread).toMatchObject({
      otherUserId: carol.id,
      otherUserDisplayName: 'Carol',
      lastMessageContent: 'to Carol',
      lastMessageSenderId: alice.id,
      lastMessageAt: toCarol.createdAt,
      hasUnreadMessages: false,
      unreadCount: 0,
    });

    // Bob sees the same conversation with Alice as the other user, nothing unread (he wrote both).
    expect(await threads(bob)).toEqual([
      expect.objectContaining({ id: bobConversation.id, otherUserId: alice.id, otherUserDisplayName: 'Alice', hasUnreadMessages: false, unreadCount: 0 }),
    ]);
    // The same order as the conversation list.
    expect(list.map((th) => th.id)).toEqual((await conversations(alice)).map((c) => c.id));
  });

  it('an empty thread shows only to its starter, with no last message', async () => {
    const [alice, bob] = await pair(t);
    const conversation = await start(alice, bob);
    expect(await threads(alice)).toEqual([expect.objectContaining({ id: conversation.id, otherUserId: bob.id, lastMessageContent: null, lastMessageAt: null, hasUnreadMessages: false })]);
    expect(await threads(bob)).toEqual([]);
  });

  it('pages like the conversation list', async () => {
    const viewer = await t.user();
    for (let i = 0; i < 3; i++) await dm(viewer, await t.user(), `hello ${i}`);
    const first = await viewer.get('/api/messages?limit=2');
    const page1 = ok<DmThread[]>(first);
    expect(page1).toHaveLength(2);
    const cursor = first.headers[NEXT_CURSOR_HEADER] as string;
    expect(cursor).toEqual(expect.any(String));
    const second = await viewer.get(`/api/messages?limit=2&cursor=${encodeURIComponent(cursor)}`);
    expect(second.headers[NEXT_CURSOR_HEADER]).toBeUndefined();
    expect([...page1, ...ok<DmThread[]>(second)].map((th) => th.id)).toEqual((await threads(viewer)).map((th) => th.id));
    expectError(await viewer.get('/api/messages?cursor=zzz'), 400, { field: 'cursor' });
    expectError(await viewer.get('/api/messages?limit=0'), 400, { field: 'limit' });
  });
});

describe('GET /api/messages/:otherUserId', () => {
  it('answers the messages with the other person oldest first, in DM shape', async () => {
    const [alice, bob] = await pair(t);
    const m1 = await dm(alice, bob, 'one');
    const m2 = await dm(bob, alice, 'two');
    const m3 = await dm(alice, bob, 'three');
    const seen = await messagesWith(bob, alice);
    expect(seen).toEqual([m1, m2, m3]);
    expect(seen[1]).toEqual({ id: m2.id, fromUserId: bob.id, toUserId: alice.id, content: 'two', messageType: 'text', isRead: false, readAt: null, createdAt: m2.createdAt });
    expect(await messagesWith(alice, bob)).toEqual(seen);
  });

  it('is an empty list while there is no conversation yet (or an empty one)', async () => {
    const [alice, bob] = await pair(t);
    expect(await messagesWith(alice, bob)).toEqual([]);
    await start(alice, bob);
    expect(await messagesWith(bob, alice)).toEqual([]);
  });

  it('pages back through older messages', async () => {
    const [alice, bob] = await pair(t);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await dm(alice, bob, `m${i}`)).id);
    const first = await bob.get(`/api/messages/${alice.id}?limit=2`);
    expect(ok<DmMessage[]>(first).map((m) => m.id)).toEqual(ids.slice(1));
    const cursor = first.headers[NEXT_CURSOR_HEADER] as string;
    const older = await bob.get(`/api/messages/${alice.id}?limit=2&cursor=${encodeURIComponent(cursor)}`);
    expect(ok<DmMessage[]>(older).map((m) => m.id)).toEqual(ids.slice(0, 1));
    expect(older.headers[NEXT_CURSOR_HEADER]).toBeUndefined();
  });

  it('refuses yourself (400), an unknown user (404) and a non-uuid (400)', async () => {
    const alice = await t.user();
    expectError(await alice.get(`/api/messages/${alice.id}`), 400, { field: 'otherUserId' });
    expectError(await alice.get(`/api/messages/${randomUUID()}`), 404);
    expectError(await alice.get('/api/messages/not-a-user'), 400, { field: 'otherUserId' });
  });
});

describe('PUT /api/messages/:id/read', () => {
  it('the recipient marks one message read: isRead and readAt set, the rest untouched; again changes nothing', async () => {
    const [alice, bob] = await pair(t);
    const first = await dm(alice, bob, 'first');
    const second = await dm(alice, bob, 'second');
    const before = Date.now();
    const read = ok<DmMessage>(await bob.put(`/api/messages/${first.id}/read`));
    expect(read).toMatchObject({ id: first.id, fromUserId: alice.id, toUserId: bob.id, content: 'first', isRead: true });
    expect(read.readAt).not.toBeNull();
    expect(Date.parse(read.readAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect(await messagesWith(bob, alice)).toEqual([
      expect.objectContaining({ id: first.id, isRead: true, readAt: read.readAt }),
      expect.objectContaining({ id: second.id, isRead: false, readAt: null }),
    ]);
    // Idempotent: the first read time stays.
    expect(ok<DmMessage>(await bob.put(`/api/messages/${first.id}/read`))).toEqual(read);
  });

  it('the sender gets 403, anyone else and an unknown id 404, a non-uuid 400', async () => {
    const [alice, bob] = await pair(t);
    const eve = await t.user();
    const sent = await dm(alice, bob, 'for Bob only');
    expectError(await alice.put(`/api/messages/${sent.id}/read`), 403);
    expectError(await eve.put(`/api/messages/${sent.id}/read`), 404, { message: 'Message not found' });
    expectError(await bob.put(`/api/messages/${randomUUID()}/read`), 404);
    expectError(await bob.put('/api/messages/nope/read'), 400, { field: 'id' });
    expect(await t.prisma.message.findUniqueOrThrow({ where: { id: sent.id } })).toMatchObject({ isRead: false, readAt: null });
  });
});

describe('GET /api/messages/unread', () => {
  it('counts unread messages and the conversations holding them, exactly, as messages come and are read', async () => {
    const [alice, bob] = await pair(t);
    const carol = await t.user();
    expect(await unread(bob)).toEqual({ unreadMessages: 0, unreadConversations: 0 } satisfies UnreadSummary);

    const a1 = await dm(alice, bob, 'a1');
    await dm(alice, bob, 'a2');
    await dm(bob, alice, 'b1');
    await dm(alice, bob, 'a3');
    await dm(bob, alice, 'b2');
    const c1 = await dm(carol, bob, 'c1');
    expect(await unread(bob)).toEqual({ unreadMessages: 4, unreadConversations: 2 });
    expect(await unread(alice)).toEqual({ unreadMessages: 2, unreadConversations: 1 });
    expect(await unread(carol)).toEqual({ unreadMessages: 0, unreadConversations: 0 });
    expect((await listedWith(bob, alice))?.unreadCount).toBe(3);
    expect((await listedWith(bob, carol))?.unreadCount).toBe(1);
    expect((await listedWith(alice, bob))?.unreadCount).toBe(2);

    // One message read through the thread API.
    ok(await bob.put(`/api/messages/${a1.id}/read`));
    expect(await unread(bob)).toEqual({ unreadMessages: 3, unreadConversations: 2 });
    expect((await listedWith(bob, alice))?.unreadCount).toBe(2);

    // The rest of Alice's through the conversation API.
    const withAlice = (await listedWith(bob, alice))!;
    expect(ok<ConversationReadResponse>(await bob.patch(`/api/conversations/${withAlice.id}/read`)).markedRead).toBe(2);
    expect(await unread(bob)).toEqual({ unreadMessages: 1, unreadConversations: 1 });
    // Reading is per reader: Alice's unread messages from Bob are still unread.
    expect(await unread(alice)).toEqual({ unreadMessages: 2, unreadConversations: 1 });

    ok(await bob.put(`/api/messages/${c1.id}/read`));
    expect(await unread(bob)).toEqual({ unreadMessages: 0, unreadConversations: 0 });
    expect((await threads(bob)).map((th) => th.hasUnreadMessages)).toEqual([false, false]);
  });
});

describe('the two API families are one store', () => {
  it('a message sent through either is read through the other, both ways', async () => {
    const [alice, bob] = await pair(t);
    const viaThreads = await dm(alice, bob, 'sent as a DM');
    const conversation = (await listedWith(bob, alice))!;
    const viaConversation = await say(bob, conversation.id, 'sent in the conversation');

    // Through the conversation API…
    expect((await messagesOf(alice, conversation.id)).map((m) => [m.id, m.senderId, m.content])).toEqual([
      [viaThreads.id, alice.id, 'sent as a DM'],
      [viaConversation.id, bob.id, 'sent in the conversation'],
    ]);
    // …and the thread API, from both sides.
    for (const [viewer, other] of [[alice, bob], [bob, alice]] as const) {
      expect((await messagesWith(viewer, other)).map((m) => [m.id, m.fromUserId, m.toUserId, m.content])).toEqual([
        [viaThreads.id, alice.id, bob.id, 'sent as a DM'],
        [viaConversation.id, bob.id, alice.id, 'sent in the conversation'],
      ]);
    }
    expect((await threads(alice))[0]).toMatchObject({ id: conversation.id, lastMessageContent: 'sent in the conversation', lastMessageAt: viaConversation.createdAt });
    expect((await listedWith(alice, bob))?.lastMessage).toMatchObject({ id: viaConversation.id, senderId: bob.id });
  });

  it('read state set through one API shows in the other', async () => {
    const [alice, bob] = await pair(t);
    const conversation = await start(alice, bob);
    const m1 = await say(alice, conversation.id, 'one');
    await say(alice, conversation.id, 'two');

    // PUT (thread API) → unreadCount and isRead in the conversation API.
    ok(await bob.put(`/api/messages/${m1.id}/read`));
    expect((await listedWith(bob, alice))?.unreadCount).toBe(1);
    expect((await messagesOf(bob, conversation.id)).map((m) => m.isRead)).toEqual([true, false]);

    // PATCH (conversation API) → isRead, readAt and hasUnreadMessages in the thread API.
    ok(await bob.patch(`/api/conversations/${conversation.id}/read`));
    const seen = await messagesWith(bob, alice);
    expect(seen.map((m) => m.isRead)).toEqual([true, true]);
    expect(seen.every((m) => m.readAt !== null)).toBe(true);
    expect((await threads(bob))[0]).toMatchObject({ id: conversation.id, hasUnreadMessages: false, unreadCount: 0 });

    // And the other way: Alice's view of Bob's reply.
    const reply = await dm(bob, alice, 'reply');
    expect((await threads(alice))[0]).toMatchObject({ hasUnreadMessages: true, unreadCount: 1 });
    ok(await alice.patch(`/api/conversations/${conversation.id}/read`));
    expect(await messagesWith(alice, bob)).toContainEqual(expect.objectContaining({ id: reply.id, isRead: true }));
    expect((await listedWith(alice, bob) as Conversation).unreadCount).toBe(0);
  });
});
