import type { Friend } from '@hoptrack/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, idsOf, noContent, ok, unknownId } from './helpers';
import { startTestSocial, type TestSocial, type TestUser } from './support';

let social: TestSocial;
beforeAll(async () => {
  social = await startTestSocial();
});
afterAll(() => social.close());

const pin = (me: TestUser, friend: TestUser, body: object = {}) => social.as(me).post(`/api/friends/${friend.id}/pin`, body);
const unpin = (me: TestUser, friend: TestUser) => social.as(me).delete(`/api/friends/${friend.id}/pin`);
const friendsOf = async (me: TestUser, url = '/api/friends') => ok<Friend[]>(await social.as(me).get(url));

/** `me` with `n` new friends, befriended in order. */
async function withFriends(n: number): Promise<{ me: TestUser; friends: TestUser[] }> {
  const [me, ...friends] = await Promise.all(Array.from({ length: n + 1 }, () => social.user())) as [TestUser, ...TestUser[]];
  // Befriended one after the other, alternating who asks: the order of /api/friends depends on it.
  for (const [i, friend] of friends.entries()) await social.befriend(i % 2 === 0 ? me : friend, i % 2 === 0 ? friend : me);
  return { me, friends };
}

describe('only friends can be pinned or muted', () => {
  const ACTIONS = [
    ['POST', 'mute'],
    ['DELETE', 'mute'],
    ['POST', 'pin'],
    ['DELETE', 'pin'],
  ] as const;
  const TARGETS = ['a stranger', 'someone I sent a request to', 'someone who sent me a request', 'an unknown user', 'a blocked ex-friend'] as const;
  it.each(ACTIONS.flatMap(([method, what]) => TARGETS.map((target) => ({ method, what, target }))))(
    '$method $what of $target → 404 Friend not found',
    async ({ method, what, target }) => {
      const [me, other] = await Promise.all([social.user(), social.user()]);
      if (target === 'someone I sent a request to') ok(await social.as(me).post('/api/friendships', { friendId: other.id }), 201);
      if (target === 'someone who sent me a request') ok(await social.as(other).post('/api/friendships', { friendId: me.id }), 201);
      if (target === 'a blocked ex-friend') {
        await social.befriend(me, other);
        noContent(await social.as(me).post(`/api/friends/${other.id}/block`, {}));
      }
      const url = `/api/friends/${target === 'an unknown user' ? unknownId() : other.id}/${what}`;
      const res = method === 'POST' ? await social.as(me).post(url, {}) : await social.as(me).delete(url);
      expectError(res, 404, { message: 'Friend not found' });
    },
  );
});

describe('pins', () => {
  it('lists pinned friends in the order they were pinned, and puts them first in /api/friends', async () => {
    const { me, friends } = await withFriends(4);
    const [a, b, c, d] = friends as [TestUser, TestUser, TestUser, TestUser];
    for (const f of [c, a, d]) noContent(await pin(me, f));
    const pinned = await friendsOf(me, '/api/friends/pinned');
    expect(pinned.map((f) => [f.id, f.isPinned, f.pinnedOrder])).toEqual([
      [c.id, true, 0],
      [a.id, true, 1],
      [d.id, true, 2],
    ]);
    const all = await friendsOf(me);
    expect(idsOf(all)).toEqual([c.id, a.id, d.id, b.id]);
    expect(all[3]).toMatchObject({ isPinned: false, pinnedOrder: null });

    // An unpinned friend that is pinned again goes last.
    noContent(await unpin(me, c));
    noContent(await pin(me, c));
    expect(idsOf(await friendsOf(me, '/api/friends/pinned'))).toEqual([a.id, d.id, c.id]);
  });

  it('takes a place in the list: 0 is first, the others shift, a place past the end is last', async () => {
    const { me, friends } = await withFriends(4);
    const [a, b, c, d] = friends as [TestUser, TestUser, TestUser, TestUser];
    const places = async () => (await friendsOf(me, '/api/friends/pinned')).map((f) => [f.id, f.pinnedOrder]);
    noContent(await pin(me, a, { order: 4 })); // past the end of an empty list: first and last
    noContent(await pin(me, b, { order: 0 }));
    noContent(await pin(me, c)); // no order: last
    noContent(await pin(me, d, { order: 1 }));
    expect(await places()).toEqual([
      [b.id, 0],
      [d.id, 1],
      [a.id, 2],
      [c.id, 3],
    ]);
    noContent(await pin(me, c)); // already pinned, no order: stays where it is
    expect(idsOf(await friendsOf(me, '/api/friends/pinned'))).toEqual([b.id, d.id, a.id, c.id]);
  });

  it('moves a pinned friend up, down, first and last (the spec\'s pinnedOrder), keeping places 0, 1, 2...', async () => {
    const { me, friends } = await withFriends(4);
    const [a, b, c, d] = friends as [TestUser, TestUser, TestUser, TestUser];
    for (const f of [a, b, c, d]) noContent(await pin(me, f));
    const pinned = async () => {
      const list = await friendsOf(me, '/api/friends/pinned');
      expect(list.map((f) => f.pinnedOrder)).toEqual(list.map((_, i) => i));
      return idsOf(list);
    };
    noContent(await pin(me, c, { order: 1 })); // up one
    expect(await pinned()).toEqual([a.id, c.id, b.id, d.id]);
    noContent(await pin(me, a, { order: 1 })); // down one
    expect(await pinned()).toEqual([c.id, a.id, b.id, d.id]);
    noContent(await pin(me, d, { order: 0 })); // to the top
    expect(await pinned()).toEqual([d.id, c.id, a.id, b.id]);
    noContent(await pin(me, d, { order: 9 })); // past the end: last
    expect(await pinned()).toEqual([c.id, a.id, b.id, d.id]);
    // /api/friends shows the pins first, in the same order.
    expect(idsOf(await friendsOf(me)).slice(0, 4)).toEqual([c.id, a.id, b.id, d.id]);
    // Unpinning closes the gap.
    noContent(await unpin(me, a));
    expect(await pinned()).toEqual([c.id, b.id, d.id]);
  });

  it('answers a sixth pin sent as the spec\'s client sends it ({order: 5}) with the limit text', async () => {
    const { me, friends } = await withFriends(6);
    for (const [i, f] of friends.slice(0, 5).entries()) noContent(await pin(me, f, { order: i }));
    const sixth = friends[5] as TestUser;
    expectError(await pin(me, sixth, { order: 5 }), 409, { message: 'You can only pin up to 5 friends.' });
    expectError(await pin(me, sixth, { order: 0 }), 409, { message: 'You can only pin up to 5 friends.' });
    expect(idsOf(await friendsOf(me, '/api/friends/pinned'))).toEqual(idsOf(friends.slice(0, 5)));
  });

  it('refuses a sixth pin with 409, but allows it once a slot is free; re-pinning a pinned friend is fine', async () => {
    const { me, friends } = await withFriends(6);
    const [first, , , , fifth, sixth] = friends as [TestUser, TestUser, TestUser, TestUser, TestUser, TestUser];
    for (const f of friends.slice(0, 5)) noContent(await pin(me, f));
    expectError(await pin(me, sixth), 409, { message: 'You can only pin up to 5 friends.' });
    expect(await friendsOf(me, '/api/friends/pinned')).toHaveLength(5);
    noContent(await pin(me, fifth)); // a no-op, not a sixth pin
    noContent(await pin(me, fifth, { order: 3 })); // moving a pinned friend is not a sixth pin either
    noContent(await unpin(me, first));
    noContent(await pin(me, sixth));
    expect(idsOf(await friendsOf(me, '/api/friends/pinned'))).toContain(sixth.id);
    expect(await friendsOf(me, '/api/friends/pinned')).toHaveLength(5);
  });

  it('never lets concurrent pins pass the limit', async () => {
    const { me, friends } = await withFriends(7);
    const results = await Promise.all(friends.map((f) => pin(me, f)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([204, 204, 204, 204, 204, 409, 409]);
    const pinned = await friendsOf(me, '/api/friends/pinned');
    expect(pinned).toHaveLength(5);
    expect(new Set(pinned.map((f) => f.pinnedOrder)).size).toBe(5);
  });

  it('is per side: my pin is not my friend’s, and unfriending drops it', async () => {
    const { me, friends } = await withFriends(1);
    const [friend] = friends as [TestUser];
    noContent(await pin(me, friend));
    expect(await friendsOf(friend, '/api/friends/pinned')).toEqual([]);
    expect((await friendsOf(friend))[0]).toMatchObject({ id: me.id, isPinned: false });
    noContent(await social.as(me).delete(`/api/friends/${friend.id}`));
    await social.befriend(friend, me);
    expect(await friendsOf(me, '/api/friends/pinned')).toEqual([]);
  });

  it('answers 204 with no body, also when the body is left out', async () => {
    const { me, friends } = await withFriends(1);
    const [friend] = friends as [TestUser];
    noContent(await social.as(me).post(`/api/friends/${friend.id}/pin`));
    expect(await friendsOf(me, '/api/friends/pinned')).toHaveLength(1);
  });
});

describe('mutes', () => {
  it('mutes and unmutes a friend, on my side only; repeating a state is a quiet 204', async () => {
    const { me, friends } = await withFriends(2);
    const [loud, other] = friends as [TestUser, TestUser];
    const muted = async () => new Map((await friendsOf(me)).map((f) => [f.id, f.isMuted]));
    noContent(await social.as(me).post(`/api/friends/${loud.id}/mute`));
    expect(await muted()).toEqual(new Map([[loud.id, true], [other.id, false]]));
    expect((await friendsOf(loud))[0]).toMatchObject({ id: me.id, isMuted: false });
    noContent(await social.as(me).post(`/api/friends/${loud.id}/mute`));
    expect((await muted()).get(loud.id)).toBe(true);
    noContent(await social.as(me).delete(`/api/friends/${loud.id}/mute`));
    expect((await muted()).get(loud.id)).toBe(false);
    noContent(await social.as(me).delete(`/api/friends/${loud.id}/mute`));
    expect((await muted()).get(loud.id)).toBe(false);
  });
});
