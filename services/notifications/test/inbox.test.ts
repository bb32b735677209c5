import { randomUUID } from 'node:crypto';
import type { Notification } from '@hoptrack/proto';
import { ok } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INBOX_MAX, READ_ENTRY_TTL_DAYS } from '../src/domain/inbox';
import { startTestNotifications, type Client, type TestNotifications } from './support';

let t: TestNotifications;
beforeAll(async () => {
  t = await startTestNotifications();
});
afterAll(() => t.close());

const inbox = async (client: Client) => ok<Notification[]>(await client.get('/api/notifications'));
const unread = async (client: Client) => ok<{ count: number }>(await client.get('/api/notifications/unread-count')).count;

/** A session of `owner`'s as the sessions service announces it. */
async function session(owner: Client, title = 'Friday pints'): Promise<string> {
  const sessionId = randomUUID();
  const at = new Date().toISOString();
  await t.publish('session.created.v1', { sessionId, userId: owner.id, beerCount: 2, duration: 90, title, createdAt: at, updatedAt: at });
  return sessionId;
}
const like = (sessionId: string, owner: Client, who: Client) => t.publish('session.liked.v1', { sessionId, ownerId: owner.id, userId: who.id });
const unlike = (sessionId: string, owner: Client, who: Client) => t.publish('session.unliked.v1', { sessionId, ownerId: owner.id, userId: who.id });
const comment = async (sessionId: string, owner: Client, who: Client) => {
  const commentId = randomUUID();
  await t.publish('session.commented.v1', { sessionId, ownerId: owner.id, userId: who.id, commentId, content: 'Cheers' });
  return commentId;
};

describe('likes, grouped and retracted', () => {
  it('groups the likes of one session into one entry, newest liker first, and counts it once', async () => {
    const [alice, bob, carl, dan] = await Promise.all([
      t.user({ displayName: 'Alice' }),
      t.user({ displayName: 'Bob' }),
      t.user({ displayName: 'Carl' }),
      t.user({ displayName: 'Dan' }),
    ]);
    const s = await session(alice);
    await like(s, alice, bob);
    expect(await inbox(alice)).toMatchObject([{ kind: 'session.liked', actorCount: 1, text: 'Bob liked your session “Friday pints”', read: false }]);
    await like(s, alice, carl);
    await like(s, alice, dan);
    const [entry, ...rest] = await inbox(alice);
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      kind: 'session.liked',
      actorCount: 3,
      text: 'Dan and 2 others liked your session “Friday pints”',
      target: { type: 'session', id: s, title: 'Friday pints', ownerId: alice.id },
    });
    expect(entry?.actors.map((a) => a.displayName)).toEqual(['Dan', 'Carl', 'Bob']);
    expect(await unread(alice)).toBe(1);
    // The likers' own inboxes hold nothing of it.
    expect(await inbox(bob)).toEqual([]);
  });

  it('an unlike takes its liker back out, and the last unlike removes the entry', async () => {
    const [alice, bob, carl] = await Promise.all([t.user({ displayName: 'Alice' }), t.user({ displayName: 'Bob' }), t.user({ displayName: 'Carl' })]);
    const s = await session(alice, 'Porter night');
    await like(s, alice, bob);
    await like(s, alice, carl);
    await unlike(s, alice, carl);
    expect(await inbox(alice)).toMatchObject([{ actorCount: 1, text: 'Bob liked your session “Porter night”' }]);
    await unlike(s, alice, bob);
    expect(await inbox(alice)).toEqual([]);
    expect(await unread(alice)).toBe(0);
  });

  it('a like, a reaction and a comment by one person on one session make one entry', async () => {
    const [alice, bob, carl] = await Promise.all([t.user(), t.user({ displayName: 'Bob' }), t.user({ displayName: 'Carl' })]);
    const s = await session(alice, 'Cask ale');
    await like(s, alice, bob);
    const bobsComment = await comment(s, alice, bob);
    expect(await inbox(alice)).toMatchObject([
      { kind: 'session.commented', kinds: ['session.liked', 'session.commented'], actorCount: 1, text: 'Bob liked and commented on your session “Cask ale”' },
    ]);
    expect(await unread(alice)).toBe(1);
    await t.publish('session.reacted.v1', { sessionId: s, ownerId: alice.id, userId: carl.id, emoji: '🍻' });
    expect(await inbox(alice)).toMatchObject([{ kind: 'session.reacted', actorCount: 2, text: 'Carl and Bob liked, reacted to and commented on your session “Cask ale”' }]);
    await t.publish('session.comment.deleted.v1', { sessionId: s, ownerId: alice.id, userId: bob.id, commentId: bobsComment });
    expect(await inbox(alice)).toMatchObject([{ kinds: ['session.liked', 'session.reacted'], text: 'Carl and Bob liked and reacted to your session “Cask ale”' }]);
  });

  it('a like of one’s own session notifies nobody', async () => {
    const alice = await t.user();
    const s = await session(alice);
    await like(s, alice, alice);
    expect(await inbox(alice)).toEqual([]);
  });

  it('a like after the entry was read re-opens the same entry within the window', async () => {
    const [alice, bob, carl] = await Promise.all([t.user(), t.user(), t.user()]);
    const s = await session(alice);
    await like(s, alice, bob);
    ok(await alice.post('/api/notifications/read', { all: true }));
    expect(await unread(alice)).toBe(0);
    await like(s, alice, carl);
    const entries = await inbox(alice);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorCount: 2, read: false });
    expect(await unread(alice)).toBe(1);
  });
});

describe('comments and reactions', () => {
  it('tells the owner of comments (grouped) and earlier commenters of later ones; a deleted comment is taken back', async () => {
    const [alice, bob, carl] = await Promise.all([t.user({ displayName: 'Alice' }), t.user({ displayName: 'Bob' }), t.user({ displayName: 'Carl' })]);
    const s = await session(alice, 'Stout Sunday');
    await comment(s, alice, bob);
    const carlsComment = await comment(s, alice, carl);
    expect(await inbox(alice)).toMatchObject([{ kind: 'session.commented', actorCount: 2, text: 'Carl and Bob commented on your session “Stout Sunday”' }]);
    expect(await inbox(bob)).toMatchObject([{ kind: 'comment.followed', actorCount: 1, text: 'Carl also commented on “Stout Sunday”', target: { id: s } }]);
    // The owner's own comment tells the earlier commenters, not the owner.
    await comment(s, alice, alice);
    expect((await inbox(bob))[0]).toMatchObject({ kind: 'comment.followed', actorCount: 2 });
    expect(await inbox(alice)).toHaveLength(1);

    await t.publish('session.comment.deleted.v1', { sessionId: s, ownerId: alice.id, userId: carl.id, commentId: carlsComment });
    expect(await inbox(alice)).toMatchObject([{ actorCount: 1, text: 'Bob commented on your session “Stout Sunday”' }]);
    expect(await inbox(bob)).toMatchObject([{ actorCount: 1, text: 'Alice also commented on “Stout Sunday”' }]);
  });

  it('groups reactions per session and counts a person with two emoji once; unreacting takes one back', async () => {
    const [alice, bob] = await Promise.all([t.user(), t.user({ displayName: 'Bob' })]);
    const s = await session(alice, 'Lager lunch');
    await t.publish('session.reacted.v1', { sessionId: s, ownerId: alice.id, userId: bob.id, emoji: '🍺' });
    await t.publish('session.reacted.v1', { sessionId: s, ownerId: alice.id, userId: bob.id, emoji: '🎉' });
    expect(await inbox(alice)).toMatchObject([{ kind: 'session.reacted', actorCount: 1, text: 'Bob reacted to your session “Lager lunch”' }]);
    await t.publish('session.unreacted.v1', { sessionId: s, ownerId: alice.id, userId: bob.id, emoji: '🍺' });
    expect(await inbox(alice)).toHaveLength(1);
    await t.publish('session.unreacted.v1', { sessionId: s, ownerId: alice.id, userId: bob.id, emoji: '🎉' });
    expect(await inbox(alice)).toEqual([]);
  });

  it('a deleted session takes everything it caused out of every inbox', async () => {
    const [alice, bob, carl] = await Promise.all([t.user(), t.user(), t.user()]);
    const s = await session(alice);
    await like(s, alice, bob);
    await comment(s, alice, bob);
    await comment(s, alice, carl);
    // One entry for the like and the comments (one session's activity), one for bob (carl's later comment).
    expect(await unread(alice)).toBe(1);
    expect(await unread(bob)).toBe(1);
    await t.publish('session.deleted.v1', { sessionId: s, userId: alice.id });
    expect(await inbox(alice)).toEqual([]);
    expect(await inbox(bob)).toEqual([]);
    expect(await unread(alice)).toBe(0);
  });

  it('a session from before the service knew it is named from its first interaction, without a title', async () => {
    const [alice, bob] = await Promise.all([t.user(), t.user({ displayName: 'Bob' })]);
    const s = randomUUID();
    await t.publish('session.liked.v1', { sessionId: s, ownerId: alice.id, userId: bob.id });
    expect(await inbox(alice)).toMatchObject([{ text: 'Bob liked your session', target: { type: 'session', id: s, title: null, ownerId: alice.id } }]);
  });
});

describe('friend requests and messages', () => {
  it('a request notifies the recipient; accepting removes it and tells the requester', async () => {
    const [alice, bob] = await Promise.all([t.user({ displayName: 'Alice' }), t.user({ displayName: 'Bob' })]);
    const friendshipId = randomUUID();
    await t.publish('social.friendship.requested.v1', { friendshipId, requesterId: bob.id, recipientId: alice.id });
    expect(await inbox(alice)).toMatchObject([{ kind: 'friend.requested', text: 'Bob sent you a friend request', target: { type: 'user', id: bob.id } }]);
    await t.publish('social.friendship.accepted.v1', { friendshipId, requesterId: bob.id, recipientId: alice.id });
    expect(await inbox(alice)).toEqual([]);
    expect(await inbox(bob)).toMatchObject([{ kind: 'friend.accepted', text: 'Alice accepted your friend request', target: { type: 'user', id: alice.id } }]);
  });

  it('a declined or withdrawn request leaves nothing', async () => {
    const [alice, bob] = await Promise.all([t.user(), t.user()]);
    const friendshipId = randomUUID();
    await t.publish('social.friendship.requested.v1', { friendshipId, requesterId: bob.id, recipientId: alice.id });
    await t.publish('social.friendship.rejected.v1', { friendshipId, requesterId: bob.id, recipientId: alice.id });
    expect(await inbox(alice)).toEqual([]);
    expect(await inbox(bob)).toEqual([]);
  });

  it('groups unread messages per sender; reading the conversation clears the entry', async () => {
    const [alice, bob] = await Promise.all([t.user(), t.user({ displayName: 'Bob' })]);
    const conversationId = randomUUID();
    const send = () =>
      t.publish('message.sent.v1', { conversationId, messageId: randomUUID(), senderId: bob.id, recipientId: alice.id, content: 'Pint?', createdAt: new Date().toISOString() });
    await send();
    await send();
    expect(await inbox(alice)).toMatchObject([{ kind: 'message.received', text: 'Bob sent you 2 messages', actorCount: 1 }]);
    expect(await inbox(bob)).toEqual([]);
    await t.publish('message.read.v1', { conversationId, readerId: alice.id, senderId: bob.id, count: 2, readAt: new Date().toISOString() });
    expect(await inbox(alice)).toEqual([]);
  });
});

describe('idempotence', () => {
  it('a replayed event and a second event for the same like create nothing twice', async () => {
    const [alice, bob] = await Promise.all([t.user(), t.user()]);
    const s = await session(alice);
    const liked = await t.publish('session.liked.v1', { sessionId: s, ownerId: alice.id, userId: bob.id });
    await t.republish(liked);
    await like(s, alice, bob);
    const [entry, ...rest] = await inbox(alice);
    expect(rest).toEqual([]);
    expect(entry?.actorCount).toBe(1);
    const actors = await t.prisma.notificationActor.count({ where: { notificationId: entry?.id } });
    expect(actors).toBe(1);
  });

  it('a replayed comment reaches each earlier commenter once', async () => {
    const [alice, bob, carl] = await Promise.all([t.user(), t.user(), t.user()]);
    const s = await session(alice);
    await comment(s, alice, bob);
    const commentId = randomUUID();
    const commented = await t.publish('session.commented.v1', { sessionId: s, ownerId: alice.id, userId: carl.id, commentId, content: 'Again' });
    await t.republish(commented);
    expect(await t.prisma.notificationActor.count({ where: { sourceId: commentId } })).toBe(2);
  });
});

describe('privacy', () => {
  it('nothing from a person the reader blocked or was blocked by, and a later block hides what came before', async () => {
    const [alice, bob, carl] = await Promise.all([t.user(), t.user({ displayName: 'Bob' }), t.user({ displayName: 'Carl' })]);
    const s = await session(alice);
    await t.publish('social.user.blocked.v1', { blockerId: alice.id, blockedId: bob.id });
    await like(s, alice, bob);
    expect(await inbox(alice)).toEqual([]);
    expect(await t.prisma.notification.count({ where: { userId: alice.id } })).toBe(0);

    // Carl liked first; then Carl blocks Alice: his like disappears from her list and count.
    await like(s, alice, carl);
    expect(await unread(alice)).toBe(1);
    await t.publish('social.user.blocked.v1', { blockerId: carl.id, blockedId: alice.id });
    expect(await inbox(alice)).toEqual([]);
    expect(await unread(alice)).toBe(0);
    await t.publish('social.user.unblocked.v1', { blockerId: carl.id, blockedId: alice.id });
    expect(await inbox(alice)).toMatchObject([{ text: 'Carl liked your session “Friday pints”' }]);
  });

  it('nothing from a muted person; a group shows only the people the reader may see', async () => {
    const [alice, bob, carl] = await Promise.all([t.user(), t.user({ displayName: 'Bob' }), t.user({ displayName: 'Carl' })]);
    const s = await session(alice);
    await like(s, alice, bob);
    await like(s, alice, carl);
    await t.publish('social.friend.muted.v1', { userId: alice.id, friendId: carl.id });
    expect(await inbox(alice)).toMatchObject([{ actorCount: 1, text: 'Bob liked your session “Friday pints”' }]);
    const muted = await comment(s, alice, carl);
    expect(await t.prisma.notificationActor.count({ where: { sourceId: muted } })).toBe(0);
  });

  it('nothing about a session the reader can no longer see (its owner went private)', async () => {
    const [alice, bob, carl] = await Promise.all([t.user(), t.user(), t.user({ displayName: 'Carl' })]);
    const s = await session(alice);
    await comment(s, alice, bob);
    await comment(s, alice, carl);
    expect(await unread(bob)).toBe(1);
    await t.updateUser(alice, { isProfilePrivate: true });
    expect(await inbox(bob)).toEqual([]);
    expect(await unread(bob)).toBe(0);
    // A friend still sees it (newest first: the acceptance, then the comment).
    await t.publish('social.friendship.accepted.v1', { friendshipId: randomUUID(), requesterId: bob.id, recipientId: alice.id });
    expect((await inbox(bob)).map((entry) => entry.kind)).toEqual(['friend.accepted', 'comment.followed']);
  });
});

describe('an inbox stays bounded', () => {
  it(`keeps the newest ${INBOX_MAX} entries and drops read ones older than ${READ_ENTRY_TTL_DAYS} days when a new entry arrives`, async () => {
    const [alice, bob] = await Promise.all([t.user(), t.user({ displayName: 'Bob' })]);
    // A full inbox, written as the consumer would have over months: INBOX_MAX unread entries a day apart
    // (the oldest a year and more ago), and one read entry just past the time read entries are kept.
    await t.prisma.$executeRawUnsafe(
      `INSERT INTO "notifications" (id, user_id, group_key, target_id, read, created_at, updated_at)
       SELECT gen_random_uuid(), $1::uuid, 'session.activity', gen_random_uuid(), false, at, at
         FROM generate_series(1, $2::int) AS n, LATERAL (SELECT now() - make_interval(days => n) AS at) t`,
      alice.id,
      INBOX_MAX,
    );
    const staleRead = randomUUID();
    await t.prisma.$executeRawUnsafe(
      `INSERT INTO "notifications" (id, user_id, group_key, target_id, read, created_at, updated_at)
       VALUES ($1::uuid, $2::uuid, 'session.activity', gen_random_uuid(), true, now() - make_interval(days => $3::int + 1), now() - make_interval(days => $3::int + 1))`,
      staleRead,
      alice.id,
      READ_ENTRY_TTL_DAYS,
    );
    const oldest = await t.prisma.notification.findFirst({ where: { userId: alice.id, read: false }, orderBy: { updatedAt: 'asc' } });

    await like(await session(alice, 'One more'), alice, bob);

    const left = await t.prisma.notification.findMany({ where: { userId: alice.id }, select: { id: true } });
    const ids = new Set(left.map((row) => row.id));
    expect(left).toHaveLength(INBOX_MAX);
    expect(ids.has(staleRead)).toBe(false);
    // The stale read entry made one place; the new entry took the oldest unread one's.
    expect(oldest && ids.has(oldest.id)).toBe(false);
    expect((await inbox(alice))[0]?.text).toBe('Bob liked your session “One more”');
  });
});
