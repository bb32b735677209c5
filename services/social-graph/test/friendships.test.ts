import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSocial, type TestSocial } from './support';

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
    expect((await social.as(a).get(`/api/users/${b.id}`)).json()).toMatchObject({ friendshipStatus: 'accepted', email: b.email });
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
