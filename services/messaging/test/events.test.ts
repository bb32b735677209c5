import type { LiveMessageEvent, LiveReadEvent } from '@hoptrack/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dm, eventsOf, expectError, ok, pair, say, start } from './helpers';
import { startTestMessaging, type TestMessaging } from './support';

let t: TestMessaging;
beforeAll(async () => {
  t = await startTestMessaging();
});
afterAll(() => t?.close());

describe('message.sent.v1', () => {
  it('each message publishes exactly one, with its conversation, people, content and time (both APIs)', async () => {
    const [alice, bob] = await pair(t);
    const conversation = await start(alice, bob);
    const first = await say(alice, conversation.id, '  First!  ');
    const second = await dm(bob, alice, 'Second');

    const sent = await eventsOf(t, 'message.sent.v1', alice);
    expect(sent.map((e) => e.data)).toEqual([
      { conversationId: conversation.id, messageId: first.id, senderId: alice.id, recipientId: bob.id, content: 'First!', createdAt: first.createdAt },
      { conversationId: conversation.id, messageId: second.id, senderId: bob.id, recipientId: alice.id, content: 'Second', createdAt: second.createdAt },
    ] satisfies LiveMessageEvent[]);
    expect(sent.every((e) => e.type === 'message.sent.v1')).toBe(true);
    expect(new Set(sent.map((e) => e.id)).size).toBe(2);
  });

  it('starting a conversation publishes nothing; only its messages do', async () => {
    const [alice, bob] = await pair(t);
    const conversation = await start(alice, bob);
    await start(bob, alice);
    expect(await eventsOf(t, 'message.sent.v1', alice)).toEqual([]);
    const m = await say(bob, conversation.id, 'now something happens');
    expect((await eventsOf(t, 'message.sent.v1', alice)).map((e) => e.data.messageId)).toEqual([m.id]);
  });

  it('a rejected send publishes nothing', async () => {
    const [alice, bob] = await pair(t);
    const quiet = await t.user({ allowDirectMessages: false });
    const blocker = await t.user();
    const conversation = await start(alice, bob);
    await t.block(blocker, alice);
    expectError(await alice.post(`/api/conversations/${conversation.id}/messages`, { content: ' ' }), 400);
    expectError(await alice.post('/api/messages', { toUserId: bob.id, content: 'x'.repeat(2001) }), 400);
    expectError(await alice.post('/api/messages', { toUserId: quiet.id, content: 'hi' }), 403);
    expectError(await alice.post('/api/messages', { toUserId: blocker.id, content: 'hi' }), 403);
    expectError(await alice.post('/api/messages', { toUserId: alice.id, content: 'hi' }), 400);
    // A send that goes through afterwards is the only event: had the rejected ones queued anything, it would precede it.
    const accepted = await say(alice, conversation.id, 'this one counts');
    expect((await eventsOf(t, 'message.sent.v1', alice)).map((e) => e.data.messageId)).toEqual([accepted.id]);
    expect(await eventsOf(t, 'message.sent.v1', quiet)).toEqual([]);
    expect(await eventsOf(t, 'message.sent.v1', blocker)).toEqual([]);
  });
});

describe('message.read.v1', () => {
  it('marking a conversation read publishes the count once; marking it again publishes nothing', async () => {
    const [alice, bob] = await pair(t);
    const conversation = await start(alice, bob);
    await say(alice, conversation.id, 'one');
    await say(alice, conversation.id, 'two');
    await say(bob, conversation.id, 'mine');
    const read = ok<{ markedRead: number }>(await bob.patch(`/api/conversations/${conversation.id}/read`));
    expect(read.markedRead).toBe(2);
    ok(await bob.patch(`/api/conversations/${conversation.id}/read`));

    const receipts = await eventsOf(t, 'message.read.v1', bob);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.data).toEqual({ conversationId: conversation.id, readerId: bob.id, senderId: alice.id, count: 2, readAt: expect.any(String) } satisfies LiveReadEvent);
    const stored = await t.prisma.message.findFirstOrThrow({ where: { conversationId: conversation.id, recipientId: bob.id } });
    expect(receipts[0]?.data.readAt).toBe(stored.readAt?.toISOString());
    // Alice had nothing unread until now: her call changes one message and says so.
    ok(await alice.patch(`/api/conversations/${conversation.id}/read`));
    expect((await eventsOf(t, 'message.read.v1', bob)).map((e) => [e.data.readerId, e.data.count])).toEqual([
      [bob.id, 2],
      [alice.id, 1],
    ]);
  });

  it('marking one message read publishes a count of 1, once', async () => {
    const [alice, bob] = await pair(t);
    const m = await dm(alice, bob, 'read me');
    const read = ok<{ readAt: string }>(await bob.put(`/api/messages/${m.id}/read`));
    ok(await bob.put(`/api/messages/${m.id}/read`));
    // Nothing left to mark in the conversation either.
    const conversationId = (await eventsOf(t, 'message.sent.v1', alice))[0]!.data.conversationId;
    expect(ok<{ markedRead: number }>(await bob.patch(`/api/conversations/${conversationId}/read`)).markedRead).toBe(0);
    expect((await eventsOf(t, 'message.read.v1', bob)).map((e) => e.data)).toEqual([
      { conversationId, readerId: bob.id, senderId: alice.id, count: 1, readAt: read.readAt },
    ] satisfies LiveReadEvent[]);
  });

  it('an empty conversation marked read, or a refused mark, publishes nothing', async () => {
    const [alice, bob] = await pair(t);
    const eve = await t.user();
    const conversation = await start(alice, bob);
    ok(await alice.patch(`/api/conversations/${conversation.id}/read`));
    ok(await bob.patch(`/api/conversations/${conversation.id}/read`));
    const m = await say(alice, conversation.id, 'hi');
    expectError(await alice.put(`/api/messages/${m.id}/read`), 403);
    expectError(await eve.put(`/api/messages/${m.id}/read`), 404);
    expectError(await eve.patch(`/api/conversations/${conversation.id}/read`), 404);
    ok(await bob.put(`/api/messages/${m.id}/read`));
    expect((await eventsOf(t, 'message.read.v1', alice)).map((e) => [e.data.readerId, e.data.count])).toEqual([[bob.id, 1]]);
    expect(await eventsOf(t, 'message.read.v1', eve)).toEqual([]);
  });
});
