import { randomUUID } from 'node:crypto';
import { type Conversation, type DmThread, type EventEnvelope, type PresenceEntry } from '@hoptrack/proto';
import { eventually, publishEvent, readEvents } from '@hoptrack/testing';
import { openLive, type LiveClient } from '@hoptrack/testing/live';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETED_USER_NAME } from '../src/domain/views';
import { conversations, dm, expectError, messagesOf, ok, say, start, threads, unread } from './helpers';
import { snapshot, startTestMessaging, type Client, type TestMessaging } from './support';

/**
 * Account deletion (issue 24), messaging's part: on user.deleted.v1 the
 * person's messages, presence and every row naming them go; the people they
 * talked to keep their conversations and their own messages, with the erased
 * side shown as a deleted user (a random stand-in id, no name, no picture).
 */
let t: TestMessaging;
const opened: LiveClient[] = [];

beforeAll(async () => {
  t = await startTestMessaging({}, { consumers: ['audience', 'erasure'] });
});
afterAll(async () => {
  for (const client of opened) client.close();
  await t?.close();
});

/** Every table of the service's database, by its rows' text: how many rows name `needle`. */
async function rowsNaming(needle: string): Promise<Record<string, number>> {
  const tables = await t.prisma.$queryRawUnsafe<Array<{ name: string }>>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT LIKE '\\_prisma%' ORDER BY 1`,
  );
  expect(tables.map((r) => r.name)).toEqual(expect.arrayContaining(['conversations', 'messages', 'users', 'follows', 'blocks', 'outbox', 'erased_people']));
  const found: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = await t.prisma.$queryRawUnsafe<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM "${name}" t WHERE t::text ILIKE $1`, `%${needle}%`);
    if ((row?.n ?? 0) > 0) found[name] = row?.n ?? 0;
  }
  return found;
}

/** The deployment's Redis keys (by name) and values (strings, sets, sorted sets, hashes) that name `needle`. */
async function redisNaming(needle: string): Promise<string[]> {
  const keys = await t.redis.keys(`${t.config.BUS_NAMESPACE}:*`);
  const hits: string[] = [];
  for (const key of keys) {
    if (key.includes(needle)) hits.push(key);
    const type = await t.redis.type(key);
    const values =
      type === 'string' ? [(await t.redis.get(key)) ?? ''] : type === 'set' ? await t.redis.smembers(key) : type === 'zset' ? await t.redis.zrange(key, 0, -1) : type === 'hash' ? Object.entries(await t.redis.hgetall(key)).flat() : [];
    if (values.some((v) => v.includes(needle))) hits.push(`${key} (value)`);
  }
  return hits;
}

const erasedReports = async (userId: string) =>
  (await readEvents(t.bus, 'USERS', 'user.erased.v1')).filter((e) => e.data.userId === userId && e.data.service === 'messaging').length;

/** Publishes user.deleted.v1 (a new envelope each time) and waits for the `n`th report of it. */
async function deleteAccount(userId: string, n: number): Promise<EventEnvelope<'user.deleted.v1'>> {
  const envelope = await publishEvent(t.bus, 'user.deleted.v1', { userId });
  await expect.poll(() => erasedReports(userId)).toBe(n);
  await t.settle();
  return envelope;
}

const withOther = (list: Conversation[], otherId: string) => list.find((c) => c.participant1Id === otherId || c.participant2Id === otherId);

describe('user.deleted.v1', () => {
  it('erases the person’s messages, presence and id; the others keep their conversations and messages, with a deleted user on the other side', async () => {
    const alice = await t.user({ displayName: 'Alice Erased' });
    const bob = await t.user({ displayName: 'Bob' });
    const carol = await t.user({ displayName: 'Carol' });
    await t.befriend(alice, bob);

    // Alice and Bob talk both ways; Bob has read none of Alice's three messages.
    const ab = await start(alice, bob);
    await say(alice, ab.id, 'hi bob');
    const bobsFirst = await say(bob, ab.id, 'hi alice');
    const bobsLast = await dm(bob, alice, 'see you tonight');
    await say(alice, ab.id, 'unread one');
    await say(alice, ab.id, 'unread two');
    // Only Alice ever wrote to Carol: nothing of Carol's would stay in it.
    await dm(alice, carol, 'hello carol');
    // Carol and Bob: nobody erased, untouched.
    await dm(carol, bob, 'bob, it is carol');
    expect(await unread(bob)).toEqual({ unreadMessages: 4, unreadConversations: 2 });

    // Alice is online (a live stream: presence keys in Redis) and her switch is recorded.
    const stream = await openLive(t.primary.url, alice.token);
    opened.push(stream);
    expect(stream.status).toBe(200);
    await t.updateUser(alice, { displayName: 'Alice Erased', showOnlineStatus: false });
    await eventually(async () => (await redisNaming(alice.id)).length >= 2, 'alice’s presence keys');
    await t.settle();
    expect(Object.keys(await rowsNaming(alice.id)).sort()).toEqual(expect.arrayContaining(['conversations', 'messages', 'users', 'follows', 'outbox']));

    await deleteAccount(alice.id, 1);

    // Nothing names her: not a row, not a key, not a member; her stream is closed.
    expect(await rowsNaming(alice.id)).toEqual({});
    expect(await rowsNaming('Alice Erased')).toEqual({});
    await eventually(async () => (await redisNaming(alice.id)).length === 0, 'alice’s presence gone');
    await stream.ended;

    // Bob keeps the conversation and his own two messages, Alice's are gone, and she shows as a deleted user.
    const bobs = await conversations(bob);
    const kept = bobs.find((c) => c.id === ab.id);
    if (!kept) throw new Error('bob lost the conversation');
    const standIn = kept.participant1Id === bob.id ? kept.participant2Id : kept.participant1Id;
    expect(standIn).not.toBe(alice.id);
    const shown = kept.participant1Id === bob.id ? kept.participant2 : kept.participant1;
    expect(shown).toEqual({ id: standIn, username: '', displayName: DELETED_USER_NAME, profilePicture: null, avatar: null });
    expect(kept).toMatchObject({ unreadCount: 0, canMessage: false, lastMessage: { id: bobsLast.id, senderId: bob.id } });
    expect((await messagesOf(bob, ab.id)).map((m) => [m.id, m.senderId])).toEqual([
      [bobsFirst.id, bob.id],
      [bobsLast.id, bob.id],
    ]);
    const thread = (await threads(bob)).find((c) => c.id === ab.id);
    expect(thread).toMatchObject({ otherUserId: standIn, otherUserDisplayName: DELETED_USER_NAME, otherUserUsername: '', otherUserProfilePicture: null, canMessage: false } satisfies Partial<DmThread>);
    // Nobody can write to a deleted user, or start anything with the stand-in.
    await expectError(await bob.post(`/api/conversations/${ab.id}/messages`, { content: 'anyone?' }), 403);
    await expectError(await bob.post('/api/conversations', { participantId: standIn }), 404);
    // Bob's badge counts only Carol's message now; Carol's conversation with Alice held nothing of hers and is gone.
    expect(await unread(bob)).toEqual({ unreadMessages: 1, unreadConversations: 1 });
    expect((await conversations(carol)).map((c) => withOther([c], bob.id)?.id)).toEqual([expect.any(String)]);
    expect(ok<PresenceEntry[]>(await bob.get(`/api/presence?ids=${standIn}`))).toEqual([]);

    // Her tokens are refused from now on.
    await expectError(await alice.get('/api/conversations'), 401);

    // A second deletion (a new envelope) changes nothing.
    const before = { bob: await conversations(bob), carol: await conversations(carol), messages: await messagesOf(bob, ab.id) };
    await deleteAccount(alice.id, 2);
    expect({ bob: await conversations(bob), carol: await conversations(carol), messages: await messagesOf(bob, ab.id) }).toEqual(before);
    expect(await rowsNaming(alice.id)).toEqual({});

    // Late events about her (published before the deletion, delivered after) bring nothing back:
    // a snapshot (people table, the live feed's `hidden` set) and a friendship (graph tables).
    await publishEvent(t.bus, 'user.updated.v1', snapshot(alice.id, { displayName: 'Alice Erased', showOnlineStatus: false, updatedAt: new Date(Date.now() + 5000) }));
    await publishEvent(t.bus, 'social.friendship.accepted.v1', { friendshipId: randomUUID(), requesterId: alice.id, recipientId: carol.id });
    // Carol's switch after them: once the live feed has recorded it, it has handled Alice's too (one stream, in order).
    await t.updateUser(carol, { displayName: 'Carol', showOnlineStatus: false });
    await eventually(async () => (await t.redis.sismember(`${t.config.BUS_NAMESPACE}:messaging:presence:hidden`, carol.id)) === 1, 'carol hidden');
    await t.settle();
    expect(await rowsNaming(alice.id)).toEqual({});
    expect(await redisNaming(alice.id)).toEqual([]);
    expect(await conversations(bob)).toEqual(before.bob);
  });

  it('a conversation whose both participants are erased goes; one person’s erasure leaves others’ conversations alone', async () => {
    const dave = await t.user();
    const erin = await t.user();
    const frank = await t.user();
    const de = await start(dave, erin);
    await say(dave, de.id, 'to erin');
    await say(erin, de.id, 'to dave');
    const ef = await start(erin, frank);
    await say(frank, ef.id, 'frank here');
    await t.settle();

    await deleteAccount(dave.id, 1);
    const left = (await conversations(erin)).find((c) => c.id === de.id);
    expect(left).toMatchObject({ participant1: { displayName: DELETED_USER_NAME } });
    await deleteAccount(erin.id, 1);

    expect(await rowsNaming(dave.id)).toEqual({});
    expect(await rowsNaming(erin.id)).toEqual({});
    expect(await t.prisma.conversation.count({ where: { id: de.id } })).toBe(0);
    // Frank keeps his conversation with Erin's stand-in and his message.
    const franks = await conversations(frank);
    expect(franks.map((c) => c.id)).toEqual([ef.id]);
    expect(franks[0]).toMatchObject({ participant1: { displayName: DELETED_USER_NAME }, participant2Id: frank.id, lastMessage: { content: 'frank here' } });
  });
});

