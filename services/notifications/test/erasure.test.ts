import { randomUUID } from 'node:crypto';
import type { Notification } from '@hoptrack/proto';
import { ok, publishEvent, readEvents } from '@hoptrack/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnsubscribeTokens } from '../src/mail/unsubscribe';
import { startTestNotifications, type Client, type TestNotifications } from './support';

/**
 * Account deletion (issue 24), notifications' part: on user.deleted.v1 the
 * person's inbox, settings, pending mails and digest jobs go; so does every
 * contribution they made to others' inboxes (an entry left with nobody goes)
 * and every entry about them or their sessions; the others' bells hear their
 * corrected unread counts.
 */
let t: TestNotifications;
let redis: Redis;

beforeAll(async () => {
  // A long mail window: the digest jobs are still queued (delayed) when the person is erased.
  // The definition's own erasure consumer, beside the read models' and the inbox's.
  t = await startTestNotifications({ MAIL_BATCH_MS: '600000' }, { consumers: ['audience', 'inbox', 'erasure'] });
  redis = new Redis(t.config.REDIS_URL);
});
afterAll(async () => {
  redis?.disconnect();
  await t?.close();
});

/** Every table of the service's database, by its rows' text: how many rows name `needle`. */
async function rowsNaming(needle: string): Promise<Record<string, number>> {
  const tables = await t.prisma.$queryRawUnsafe<Array<{ name: string }>>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT LIKE '\\_prisma%' ORDER BY 1`,
  );
  expect(tables.map((r) => r.name)).toEqual(expect.arrayContaining(['notifications', 'notification_actors', 'pending_mails', 'notification_settings', 'session_refs', 'session_commenters', 'users', 'outbox']));
  const found: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = await t.prisma.$queryRawUnsafe<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM "${name}" t WHERE t::text ILIKE $1`, `%${needle}%`);
    if ((row?.n ?? 0) > 0) found[name] = row?.n ?? 0;
  }
  return found;
}

/** The deployment's Redis keys (the mail queue's) whose name or value names `needle`, whatever the type. */
async function redisNaming(needle: string): Promise<string[]> {
  const keys = await redis.keys(`${t.config.BUS_NAMESPACE}:*`);
  const hits: string[] = [];
  for (const key of keys) {
    if (key.includes(needle)) hits.push(key);
    if (JSON.stringify(await dump(key)).includes(needle)) hits.push(`${key} (value)`);
  }
  return hits;
}

async function dump(key: string): Promise<unknown> {
  const type = await redis.type(key);
  if (type === 'string') return redis.get(key);
  if (type === 'hash') return redis.hgetall(key);
  if (type === 'list') return redis.lrange(key, 0, -1);
  if (type === 'set') return redis.smembers(key);
  if (type === 'zset') return redis.zrange(key, 0, -1);
  if (type === 'stream') return redis.xrange(key, '-', '+');
  return null;
}

const erasedReports = async (userId: string) =>
  (await readEvents(t.bus, 'USERS', 'user.erased.v1')).filter((e) => e.data.userId === userId && e.data.service === 'notifications').length;

async function deleteAccount(userId: string, n: number): Promise<void> {
  await publishEvent(t.bus, 'user.deleted.v1', { userId });
  await expect.poll(() => erasedReports(userId)).toBe(n);
  await t.settle();
}

const inbox = async (client: Client) => ok<Notification[]>(await client.get('/api/notifications'));
const unread = async (client: Client) => ok<{ count: number }>(await client.get('/api/notifications/unread-count'));
/** What an inbox shows: each entry's kind, target and actors. */
const shown = async (client: Client) => (await inbox(client)).map((n) => ({ kind: n.kind, targetId: n.target.id, actors: n.actors.map((a) => a.id).sort() }));

async function session(owner: Client, title: string): Promise<string> {
  const sessionId = randomUUID();
  const at = new Date().toISOString();
  await t.publish('session.created.v1', { sessionId, userId: owner.id, beerCount: 1, duration: 30, title, createdAt: at, updatedAt: at });
  return sessionId;
}

describe('user.deleted.v1', () => {
  it('erases the person’s inbox and everything they caused in others’, corrects the others’ counts, keeps the rest', async () => {
    const alice = await t.user({ displayName: 'Alice Erased' });
    const bob = await t.user({ displayName: 'Bob' });
    const carol = await t.user({ displayName: 'Carol' });
    const [alicesSession, bobsSession, carolsSession] = [await session(alice, 'Alice’s night'), await session(bob, 'Bob’s night'), await session(carol, 'Carol’s night')];
    const challengeId = randomUUID();

    // Alice's own inbox: likes, a comment, a friend request, a completed challenge; her settings; a mail pending.
    await t.publish('session.liked.v1', { sessionId: alicesSession, ownerId: alice.id, userId: bob.id });
    await t.publish('session.commented.v1', { sessionId: alicesSession, ownerId: alice.id, userId: bob.id, commentId: randomUUID(), content: 'nice' });
    await t.publish('social.friendship.requested.v1', { friendshipId: randomUUID(), requesterId: bob.id, recipientId: alice.id });
    await t.publish('challenge.completed.v1', { challengeId, userId: alice.id, title: 'Try 3 new styles', date: '2026-06-15', completedAt: new Date().toISOString() });
    ok(await alice.put('/api/notifications/settings', { kinds: { 'session.reacted': { inApp: false, email: false } } }));
    // Carol comments on Alice's session after Bob: Bob's 'comment.followed' entry is about Alice's session.
    await t.publish('session.commented.v1', { sessionId: alicesSession, ownerId: alice.id, userId: carol.id, commentId: randomUUID(), content: 'me too' });

    // Alice in others' inboxes: a like beside Carol's, a reaction, a comment, a message, a friend request, an invitation.
    await t.publish('session.liked.v1', { sessionId: bobsSession, ownerId: bob.id, userId: alice.id });
    await t.publish('session.liked.v1', { sessionId: bobsSession, ownerId: bob.id, userId: carol.id });
    await t.publish('session.reacted.v1', { sessionId: bobsSession, ownerId: bob.id, userId: alice.id, emoji: '🍺' });
    await t.publish('session.commented.v1', { sessionId: carolsSession, ownerId: carol.id, userId: alice.id, commentId: randomUUID(), content: 'cheers' });
    await t.publish('message.sent.v1', { conversationId: randomUUID(), messageId: randomUUID(), senderId: alice.id, recipientId: bob.id, content: 'hi', createdAt: new Date().toISOString() });
    await t.publish('social.friendship.requested.v1', { friendshipId: randomUUID(), requesterId: alice.id, recipientId: carol.id });
    await t.publish('challenge.invited.v1', { invitationId: randomUUID(), challengeId, fromUserId: alice.id, toUserId: bob.id, title: 'Try 3 new styles' });
    // Nothing of Alice: Bob comments on Carol's session (and Alice, an earlier commenter, is told).
    await t.publish('session.commented.v1', { sessionId: carolsSession, ownerId: carol.id, userId: bob.id, commentId: randomUUID(), content: 'hello' });

    expect(await shown(bob)).toEqual(
      expect.arrayContaining([
        { kind: 'challenge.invited', targetId: challengeId, actors: [alice.id] },
        { kind: 'message.received', targetId: alice.id, actors: [alice.id] },
        { kind: 'comment.followed', targetId: alicesSession, actors: [carol.id] },
      ]),
    );
    expect((await unread(bob)).count).toBe(4);
    expect((await unread(carol)).count).toBe(2);
    expect(await t.mailQueue.getJobs(['delayed'])).toEqual(expect.arrayContaining([expect.objectContaining({ data: { userId: alice.id } })]));
    await t.changes();
    expect(Object.keys(await rowsNaming(alice.id))).toEqual(
      expect.arrayContaining(['notifications', 'notification_actors', 'pending_mails', 'notification_settings', 'session_refs', 'session_commenters', 'users', 'outbox']),
    );
    expect((await redisNaming(alice.id)).length).toBeGreaterThan(0);

    await deleteAccount(alice.id, 1);

    // Nothing names her, in the database or the queue.
    expect(await rowsNaming(alice.id)).toEqual({});
    expect(await rowsNaming('Alice Erased')).toEqual({});
    expect(await redisNaming(alice.id)).toEqual([]);

    // Bob keeps Carol's like (alone now) and his own things; everything of Alice's and about her session is gone.
    expect(await shown(bob)).toEqual([{ kind: 'session.liked', targetId: bobsSession, actors: [carol.id] }]);
    expect((await unread(bob)).count).toBe(1);
    // Carol keeps Bob's comment on her session; Alice's comment and friend request are gone.
    expect(await shown(carol)).toEqual([{ kind: 'session.commented', targetId: carolsSession, actors: [bob.id] }]);
    expect((await unread(carol)).count).toBe(1);
    // Their bells were told the corrected counts.
    const changes = await t.changes();
    const lastCount = (userId: string) => changes.filter((e) => e.data.userId === userId).at(-1)?.data.unreadCount;
    expect([lastCount(bob.id), lastCount(carol.id)]).toEqual([1, 1]);

    // A second deletion (a new envelope) changes nothing.
    const before = { bob: await inbox(bob), carol: await inbox(carol) };
    await deleteAccount(alice.id, 2);
    expect({ bob: await inbox(bob), carol: await inbox(carol) }).toEqual(before);
    expect(await rowsNaming(alice.id)).toEqual({});

    // Late events about her (published before the deletion, delivered after) bring nothing back,
    // and her old unsubscribe link writes no settings.
    await t.publish('session.liked.v1', { sessionId: bobsSession, ownerId: bob.id, userId: alice.id });
    await t.publish('session.commented.v1', { sessionId: alicesSession, ownerId: alice.id, userId: carol.id, commentId: randomUUID(), content: 'late' });
    await t.publish('social.friendship.requested.v1', { friendshipId: randomUUID(), requesterId: carol.id, recipientId: alice.id });
    const token = new UnsubscribeTokens(t.config.UNSUBSCRIBE_SECRET).sign(alice.id);
    expect((await t.app.inject({ method: 'POST', url: '/api/notifications/unsubscribe', payload: { token } })).statusCode).toBe(200);
    expect(await rowsNaming(alice.id)).toEqual({});
    expect(await redisNaming(alice.id)).toEqual([]);
    expect({ bob: await inbox(bob), carol: await inbox(carol) }).toEqual(before);
  });
});
