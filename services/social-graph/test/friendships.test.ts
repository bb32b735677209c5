import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OtherUser } from '@hoptrack/proto';
import { startTestSocial, type TestSocial, type TestUser } from './support';

let social: TestSocial;
beforeAll(async () => {
  social = await startTestSocial();
});
afterAll(() => social.close());

describe('friend requests', () => {
  it('goes none → sent → accepted, seen from both sides', async () => {
    const [a, b] = [await social.user(), await social.user()];
    const sent = await social.as(a).post('/api/friendships', { friendId: b.id });
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({ userId: a.id, friendId: b.id, status: 'pending' });

    expect((await social.as(a).get(`/api/users/${b.id}`)).json().friendshipStatus).toBe('sent');
    const seenByB = (await social.as(b).get(`/api/users/${a.id}`)).json();
    expect(seenByB).toMatchObject({ friendshipStatus: 'pending', friendshipId: sent.json().id });

    const requests = (await social.as(b).get('/api/me/friend-requests')).json();
    expect(requests).toEqual([{ id: sent.json().id, user: expect.objectContaining({ id: a.id, username: a.username }), createdAt: expect.any(String) }]);

    const accepted = await social.as(b).patch(`/api/friendships/${sent.json().id}`, { action: 'accept' });
    expect(accepted.json()).toEqual({ id: sent.json().id, status: 'accepted' });
    expect((await social.as(a).get('/api/me/friends')).json().map((f: { id: string }) => f.id)).toEqual([b.id]);
    expect((await social.as(b).get('/api/friends')).json().map((f: { id: string }) => f.id)).toEqual([a.id]);
    expect((await social.as(a).get(`/api/users/${b.id}`)).json()).toMatchObject({ friendshipStatus: 'accepted', email: null });
    expect((await social.as(b).get('/api/me/friend-requests')).json()).toEqual([]);

    const events = await social.events('social.friendship.requested.v1', 'social.friendship.accepted.v1');
    const mine = events.filter((e) => e.data.friendshipId === sent.json().id);
    expect(mine.map((e) => e.type)).toEqual(['social.friendship.requested.v1', 'social.friendship.accepted.v1']);
    expect(mine[1]?.data).toEqual({ friendshipId: sent.json().id, requesterId: a.id, recipientId: b.id });
  });

  it('search finds users by username or display name, case-insensitively, with their status', async () => {
    const me = await social.user();
    const target = await social.user({ displayName: `Zythophile ${Date.now()}` });
    const res = await social.as(me).get('/api/users/search?q=ZYTHO');
    expect(res.statusCode).toBe(200);
    const found = res.json().find((u: { id: string }) => u.id === target.id);
    expect(found).toMatchObject({ friendshipStatus: 'none', mutualFriends: 0, email: null, canViewDetails: true });
    expect(res.json().some((u: { id: string }) => u.id === me.id)).toBe(false);
  });
});

describe('the e-mail address (issue 40): its owner, and friends only when "Show my e-mail to friends" is on', () => {
  const emailSeen = async (viewer: TestUser, target: TestUser) => {
    const profile = await social.as(viewer).get(`/api/users/${target.id}`);
    if (profile.statusCode === 404) return 404;
    if (viewer.id !== target.id) {
      // The profile, the quick view (the same record) and search (never oneself) agree.
      const hits = (await social.as(viewer).get(`/api/users/search?q=${encodeURIComponent(target.displayName)}`)).json() as OtherUser[];
      expect(hits.find((u) => u.id === target.id)?.email ?? null).toBe(profile.json().email);
    }
    return profile.json().email as string | null;
  };

  it('shows it to nobody else by default, to friends only once the switch is on, and never across a block', async () => {
    const owner = await social.user({ displayName: `Mailowner ${Date.now()}` });
    const [friend, stranger, asker] = [await social.user(), await social.user(), await social.user()];
    await social.befriend(owner, friend);
    expect((await social.as(asker).post('/api/friendships', { friendId: owner.id })).statusCode).toBe(201);

    expect(await emailSeen(owner, owner)).toBe(owner.email);
    expect(await emailSeen(friend, owner)).toBeNull();
    expect(await emailSeen(stranger, owner)).toBeNull();
    expect(await emailSeen(asker, owner)).toBeNull();

    await social.updateUser(owner, { showEmailToFriends: true });
    await social.settle();
    expect(await emailSeen(friend, owner)).toBe(owner.email);
    expect(await emailSeen(stranger, owner)).toBeNull();
    expect(await emailSeen(asker, owner)).toBeNull();
    // A private profile changes nothing for a friend: the switch decides.
    await social.updateUser(owner, { isProfilePrivate: true });
    await social.settle();
    expect(await emailSeen(friend, owner)).toBe(owner.email);
    expect(await emailSeen(stranger, owner)).toBeNull();

    // A block ends the friendship: the address is gone, whoever blocked.
    expect((await social.as(owner).post(`/api/friends/${friend.id}/block`, {})).statusCode).toBe(204);
    expect(await emailSeen(friend, owner)).toBe(404);
    expect((await social.as(owner).delete(`/api/friends/${friend.id}/block`)).statusCode).toBe(204);
    expect(await emailSeen(friend, owner)).toBeNull();

    await social.updateUser(owner, { showEmailToFriends: false });
    await social.settle();
    await social.befriend(owner, friend);
    expect(await emailSeen(friend, owner)).toBeNull();
  });
});
