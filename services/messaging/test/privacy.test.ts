import { personById } from '@hoptrack/runtime';
import { audienceRows } from '@hoptrack/testing';
import type { Conversation } from '@hoptrack/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, dm, expectError, listedWith, messagesOf, ok, pair, say, start, threads, unread } from './helpers';
import { snapshot, startTestMessaging, type Client, type TestMessaging } from './support';

let t: TestMessaging;
beforeAll(async () => {
  t = await startTestMessaging();
});
afterAll(() => t?.close());

const DMS_OFF = 'This user does not accept direct messages';
const CANNOT_MESSAGE = 'You cannot message this user';

const storedFrom = (sender: Client) => t.prisma.message.count({ where: { senderId: sender.id } });
const conversationsOf = (user: Client) => t.prisma.conversation.count({ where: { OR: [{ participant1Id: user.id }, { participant2Id: user.id }] } });

describe('direct messages off', () => {
  it('others cannot start a conversation nor send, through either API, and nothing is stored', async () => {
    const [alice, bob] = await pair(t);
    const carol = await t.user();
    const existing = await start(alice, bob);
    await say(alice, existing.id, 'before the switch');
    await t.updateUser(bob, { allowDirectMessages: false });

    // A newcomer: neither a conversation nor a message.
    expectError(await carol.post('/api/conversations', { participantId: bob.id }), 403, { message: DMS_OFF });
    expectError(await carol.post('/api/messages', { toUserId: bob.id, content: 'hi Bob' }), 403, { message: DMS_OFF });
    expect(await conversationsOf(carol)).toBe(0);
    // In the existing conversation, through both APIs.
    expectError(await alice.post(`/api/conversations/${existing.id}/messages`, { content: 'still there?' }), 403, { message: DMS_OFF });
    expectError(await alice.post('/api/messages', { toUserId: bob.id, content: 'still there?' }), 403, { message: DMS_OFF });
    expect(await storedFrom(alice)).toBe(1);
    expect(await storedFrom(carol)).toBe(0);
  });

  it('an existing conversation stays readable: POST /api/conversations answers it (200) with canMessage false', async () => {
    const [alice, bob] = await pair(t);
    const existing = await start(alice, bob);
    await dm(bob, alice, 'hello Alice');
    await t.updateUser(bob, { allowDirectMessages: false });

    const again = ok<Conversation>(await alice.post('/api/conversations', { participantId: bob.id }), 200);
    expect(again).toMatchObject({ id: existing.id, canMessage: false, unreadCount: 1 });
    expect((await listedWith(alice, bob))?.canMessage).toBe(false);
    expect((await messagesOf(alice, existing.id)).map((m) => m.content)).toEqual(['hello Alice']);
    ok(await alice.patch(`/api/conversations/${existing.id}/read`));
    // From Bob's side Alice still accepts messages.
    expect((await listedWith(bob, alice))?.canMessage).toBe(true);
  });

  it('the user who turned them off can still write to others (who then cannot answer)', async () => {
    const bob = await t.user({ allowDirectMessages: false });
    const [carol, dora] = await pair(t);
    const sent = await dm(bob, carol, 'I write, you read');
    expect(sent).toMatchObject({ fromUserId: bob.id, toUserId: carol.id });
    const started = ok<Conversation>(await bob.post('/api/conversations', { participantId: dora.id }), 201);
    await say(bob, started.id, 'hi Dora');
    expect((await listedWith(bob, carol))?.canMessage).toBe(true);

    expect((await listedWith(carol, bob))).toMatchObject({ canMessage: false, unreadCount: 1 });
    expect((await threads(carol)).find((th) => th.otherUserId === bob.id)).toMatchObject({ canMessage: false, hasUnreadMessages: true });
    expectError(await carol.post('/api/messages', { toUserId: bob.id, content: 'reply' }), 403, { message: DMS_OFF });
    expectError(await dora.post(`/api/conversations/${started.id}/messages`, { content: 'reply' }), 403, { message: DMS_OFF });
  });

  it('turning them back on allows messages again', async () => {
    const [alice, bob] = await pair(t);
    const existing = await start(alice, bob);
    await t.updateUser(bob, { allowDirectMessages: false });
    expectError(await alice.post(`/api/conversations/${existing.id}/messages`, { content: 'no' }), 403, { message: DMS_OFF });
    await t.updateUser(bob, { allowDirectMessages: true });
    await say(alice, existing.id, 'yes');
    await dm(alice, bob, 'yes again');
    expect((await listedWith(alice, bob))?.canMessage).toBe(true);
    const carol = await t.user();
    expect(ok<Conversation>(await carol.post('/api/conversations', { participantId: bob.id }), 201).canMessage).toBe(true);
  });

  it('the read model keeps the newest snapshot: a replayed or older one does not undo the switch', async () => {
    const bob = await t.user({ displayName: 'Bob' });
    const [alice, carol] = await pair(t);
    const conversation = await start(alice, bob);
    // Snapshots dated well after anything the harness sends for Bob.
    const base = Date.now() + 60_000;
    const off = snapshot(bob.id, { displayName: 'Bob (quiet)', allowDirectMessages: false, updatedAt: new Date(base) });
    await t.publish('user.updated.v1', off);
    await t.publish('user.updated.v1', off);
    await t.settle();
    const row = () => personById(t.prisma, bob.id);
    expect(await row()).toMatchObject({ allowDirectMessages: false, displayName: 'Bob (quiet)' });
    expectError(await carol.post('/api/messages', { toUserId: bob.id, content: 'hi' }), 403, { message: DMS_OFF });

    // Late arrivals: an older update and the replayed registration.
    await t.publish('user.updated.v1', snapshot(bob.id, { displayName: 'Bob (old)', allowDirectMessages: true, updatedAt: new Date(base - 30_000) }));
    await t.publish('user.registered.v1', snapshot(bob.id, { displayName: 'Bob' }));
    await t.settle();
    expect(await row()).toMatchObject({ allowDirectMessages: false, displayName: 'Bob (quiet)', updatedAt: new Date(base) });
    expectError(await carol.post('/api/messages', { toUserId: bob.id, content: 'hi' }), 403, { message: DMS_OFF });
    expectError(await alice.post(`/api/conversations/${conversation.id}/messages`, { content: 'hi' }), 403, { message: DMS_OFF });
    expect((await listedWith(alice, bob))).toMatchObject({ canMessage: false, participant2: { displayName: 'Bob (quiet)' } });

    // A newer one applies.
    await t.publish('user.updated.v1', snapshot(bob.id, { displayName: 'Bob (back)', allowDirectMessages: true, updatedAt: new Date(base + 1000) }));
    await t.settle();
    await dm(carol, bob, 'hi again');
    expect((await listedWith(alice, bob))).toMatchObject({ canMessage: true, participant2: { displayName: 'Bob (back)' } });
  });
});

describe('blocks', () => {
  it('before any conversation: neither can start one nor send, whoever blocked', async () => {
    const [alice, bob] = await pair(t);
    await t.block(alice, bob);
    for (const [from, to] of [[alice, bob], [bob, alice]] as const) {
      expectError(await from.post('/api/conversations', { participantId: to.id }), 403, { message: CANNOT_MESSAGE });
      expectError(await from.post('/api/messages', { toUserId: to.id, content: 'hi' }), 403, { message: CANNOT_MESSAGE });
    }
    expect(await conversationsOf(alice)).toBe(0);
    expect(await storedFrom(alice)).toBe(0);
    expect(await storedFrom(bob)).toBe(0);
  });

  it('in an existing conversation: neither can send through either API, and neither can reopen it', async () => {
    const [alice, bob] = await pair(t);
    const conversation = await start(alice, bob);
    await say(alice, conversation.id, 'hi');
    await say(bob, conversation.id, 'hello');
    await t.block(alice, bob);
    for (const [from, to] of [[alice, bob], [bob, alice]] as const) {
      expectError(await from.post('/api/conversations', { participantId: to.id }), 403, { message: CANNOT_MESSAGE });
      expectError(await from.post('/api/messages', { toUserId: to.id, content: 'after the block' }), 403, { message: CANNOT_MESSAGE });
      expectError(await from.post(`/api/conversations/${conversation.id}/messages`, { content: 'after the block' }), 403, { message: CANNOT_MESSAGE });
    }
    expect(await t.prisma.message.count({ where: { conversationId: conversation.id } })).toBe(2);
  });

  it('the conversation disappears for both (lists, threads, unread counts, its messages) until the unblock', async () => {
    const [alice, bob] = await pair(t);
    const carol = await t.user();
    const conversation = await start(alice, bob);
    const fromAlice = await say(alice, conversation.id, 'a1');
    await say(alice, conversation.id, 'a2');
    const fromBob = await say(bob, conversation.id, 'b1');
    await dm(carol, alice, 'carol here');
    const withCarol = (await listedWith(alice, carol))!;
    await dm(carol, bob, 'carol for bob');
    expect(await unread(alice)).toEqual({ unreadMessages: 2, unreadConversations: 2 });
    expect(await unread(bob)).toEqual({ unreadMessages: 3, unreadConversations: 2 });

    await t.block(bob, alice);
    for (const [viewer, other] of [[alice, bob], [bob, alice]] as const) {
      const listed = await conversations(viewer);
      expect(listed.map((c) => c.id)).not.toContain(conversation.id);
      expect(listed, JSON.stringify({ viewer: viewer.id, alice: alice.id, bob: bob.id, carol: carol.id, listed })).toHaveLength(1); // the conversation with Carol
      expect((await threads(viewer)).map((th) => th.otherUserId)).toEqual([carol.id]);
      expectError(await viewer.get(`/api/conversations/${conversation.id}/messages`), 404);
      expectError(await viewer.patch(`/api/conversations/${conversation.id}/read`), 404);
      expectError(await viewer.get(`/api/messages/${other.id}`), 403, { message: CANNOT_MESSAGE });
    }
    expect(await unread(alice)).toEqual({ unreadMessages: 1, unreadConversations: 1 });
    expect(await unread(bob)).toEqual({ unreadMessages: 1, unreadConversations: 1 });
    expectError(await bob.put(`/api/messages/${fromAlice.id}/read`), 404);
    expectError(await alice.put(`/api/messages/${fromBob.id}/read`), 404);
    expect(await t.prisma.message.count({ where: { conversationId: conversation.id, isRead: true } })).toBe(0);

    await t.unblock(bob, alice);
    expect((await conversations(alice)).map((c) => c.id)).toEqual([withCarol.id, conversation.id]);
    expect((await listedWith(bob, alice))).toMatchObject({ id: conversation.id, unreadCount: 2, lastMessage: { id: fromBob.id } });
    expect((await messagesOf(bob, conversation.id)).map((m) => m.content)).toEqual(['a1', 'a2', 'b1']);
    expect(await unread(alice)).toEqual({ unreadMessages: 2, unreadConversations: 2 });
    expect(await unread(bob)).toEqual({ unreadMessages: 3, unreadConversations: 2 });
    await say(bob, conversation.id, 'we are fine again');
    ok(await alice.put(`/api/messages/${fromBob.id}/read`));
  });

  it('blocks both ways need both unblocks; a repeated block event changes nothing', async () => {
    const [alice, bob] = await pair(t);
    await dm(alice, bob, 'hi');
    await t.block(alice, bob);
    await t.block(alice, bob);
    await t.block(bob, alice);
    await t.unblock(alice, bob);
    expect(await conversations(bob)).toEqual([]);
    expectError(await bob.post('/api/messages', { toUserId: alice.id, content: 'hi?' }), 403, { message: CANNOT_MESSAGE });
    await t.unblock(bob, alice);
    expect(await conversations(bob)).toHaveLength(1);
    await dm(bob, alice, 'hi!');
    expect((await audienceRows(t.prisma, 'blocks', { blocker_id: alice.id })) + (await audienceRows(t.prisma, 'blocks', { blocker_id: bob.id }))).toBe(0);
  });

  it('a block between others does not hide anything', async () => {
    const [alice, bob] = await pair(t);
    const carol = await t.user();
    const conversation = await start(alice, bob);
    await say(alice, conversation.id, 'hi');
    await t.block(alice, carol);
    await t.block(carol, bob);
    expect((await conversations(bob)).map((c) => c.id)).toEqual([conversation.id]);
    await say(bob, conversation.id, 'hi back');
    expect(await unread(alice)).toEqual({ unreadMessages: 1, unreadConversations: 1 });
  });
});
