import type { Friendship } from '@hoptrack/proto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsAbout, eventsDuring, ok, type SeenEvent } from './helpers';
import { startTestSocial, type TestSocial, type TestUser } from './support';

/**
 * Every real change publishes exactly one event on the SOCIAL stream, with the
 * payload of proto/src/events.ts; a refused call or a no-op publishes none.
 */
let social: TestSocial;
beforeAll(async () => {
  social = await startTestSocial();
});
afterAll(() => social.close());

interface World {
  a: TestUser;
  b: TestUser;
  /** The id of a's pending request to b, when the setup made one. */
  requestId: string;
}

const api = () => ({
  request: (from: TestUser, to: TestUser) => social.as(from).post('/api/friendships', { friendId: to.id }),
  respond: (by: TestUser, id: string, action: 'accept' | 'reject') => social.as(by).patch(`/api/friendships/${id}`, { action }),
  post: (by: TestUser, other: TestUser, what: string, body: object = {}) => social.as(by).post(`/api/friends/${other.id}/${what}`, body),
  del: (by: TestUser, other: TestUser, what = '') => social.as(by).delete(`/api/friends/${other.id}${what ? `/${what}` : ''}`),
});

type Setup = 'strangers' | 'a asked b' | 'friends' | 'a blocked b' | 'a muted b' | 'a pinned b';

async function arrange(setup: Setup): Promise<World> {
  const [a, b] = await Promise.all([social.user(), social.user()]);
  let requestId = '';
  const { request, post } = api();
  if (setup === 'a asked b') requestId = ok<Friendship>(await request(a, b), 201).id;
  if (setup === 'friends' || setup === 'a muted b' || setup === 'a pinned b') await social.befriend(a, b);
  if (setup === 'a blocked b') expect((await post(a, b, 'block')).statusCode).toBe(204);
  if (setup === 'a muted b') expect((await post(a, b, 'mute')).statusCode).toBe(204);
  if (setup === 'a pinned b') expect((await post(a, b, 'pin')).statusCode).toBe(204);
  return { a, b, requestId };
}

/** Each real change, and the one event it must publish (payload built from the world). */
const CHANGES: Array<{
  name: string;
  setup: Setup;
  act: (w: World) => Promise<LightMyRequestResponse>;
  status: number;
  event: (w: World, res: LightMyRequestResponse) => SeenEvent;
}> = [
  {
    name: 'a friend request',
    setup: 'strangers',
    act: ({ a, b }) => api().request(a, b),
    status: 201,
    event: ({ a, b }, res) => ({ type: 'social.friendship.requested.v1', data: { friendshipId: res.json<Friendship>().id, requesterId: a.id, recipientId: b.id } }),
  },
  {
    name: 'accepting',
    setup: 'a asked b',
    act: ({ b, requestId }) => api().respond(b, requestId, 'accept'),
    status: 200,
    event: ({ a, b, requestId }) => ({ type: 'social.friendship.accepted.v1', data: { friendshipId: requestId, requesterId: a.id, recipientId: b.id } }),
  },
  {
    name: 'a request answering a request (auto-accept)',
    setup: 'a asked b',
    act: ({ a, b }) => api().request(b, a),
    status: 201,
    event: ({ a, b, requestId }) => ({ type: 'social.friendship.accepted.v1', data: { friendshipId: requestId, requesterId: a.id, recipientId: b.id } }),
  },
  {
    name: 'rejecting',
    setup: 'a asked b',
    act: ({ b, requestId }) => api().respond(b, requestId, 'reject'),
    status: 200,
    event: ({ a, b, requestId }) => ({ type: 'social.friendship.rejected.v1', data: { friendshipId: requestId, requesterId: a.id, recipientId: b.id } }),
  },
  {
    name: 'unfriending',
    setup: 'friends',
    act: ({ a, b }) => api().del(b, a),
    status: 204,
    event: ({ a, b }) => ({ type: 'social.friendship.removed.v1', data: { userId: b.id, friendId: a.id } }),
  },
  {
    name: 'blocking a stranger',
    setup: 'strangers',
    act: ({ a, b }) => api().post(a, b, 'block', { reason: 'spam' }),
    status: 204,
    event: ({ a, b }) => ({ type: 'social.user.blocked.v1', data: { blockerId: a.id, blockedId: b.id } }),
  },
  {
    name: 'blocking a friend (one event, not also removed)',
    setup: 'friends',
    act: ({ a, b }) => api().post(b, a, 'block'),
    status: 204,
    event: ({ a, b }) => ({ type: 'social.user.blocked.v1', data: { blockerId: b.id, blockedId: a.id } }),
  },
  {
    name: 'blocking someone with a pending request (not also rejected)',
    setup: 'a asked b',
    act: ({ a, b }) => api().post(b, a, 'block'),
    status: 204,
    event: ({ a, b }) => ({ type: 'social.user.blocked.v1', data: { blockerId: b.id, blockedId: a.id } }),
  },
  {
    name: 'unblocking',
    setup: 'a blocked b',
    act: ({ a, b }) => api().del(a, b, 'block'),
    status: 204,
    event: ({ a, b }) => ({ type: 'social.user.unblocked.v1', data: { blockerId: a.id, blockedId: b.id } }),
  },
  {
    name: 'muting',
    setup: 'friends',
    act: ({ a, b }) => api().post(a, b, 'mute'),
    status: 204,
    event: ({ a, b }) => ({ type: 'social.friend.muted.v1', data: { userId: a.id, friendId: b.id } }),
  },
  {
    name: 'unmuting',
    setup: 'a muted b',
    act: ({ a, b }) => api().del(a, b, 'mute'),
    status: 204,
    event: ({ a, b }) => ({ type: 'social.friend.unmuted.v1', data: { userId: a.id, friendId: b.id } }),
  },
  {
    name: 'pinning',
    setup: 'friends',
    act: ({ a, b }) => api().post(a, b, 'pin'),
    status: 204,
    event: ({ a, b }) => ({ type: 'social.friend.pinned.v1', data: { userId: a.id, friendId: b.id, order: 0 } }),
  },
  {
    name: 'unpinning',
    setup: 'a pinned b',
    act: ({ a, b }) => api().del(a, b, 'pin'),
    status: 204,
    event: ({ a, b }) => ({ type: 'social.friend.unpinned.v1', data: { userId: a.id, friendId: b.id } }),
  },
];

describe('every change publishes exactly one event', () => {
  it.each(CHANGES)('$name', async ({ setup, act, status, event }) => {
    const world = await arrange(setup);
    let res: LightMyRequestResponse | undefined;
    const events = await eventsDuring(social, [world.a, world.b], async () => {
      res = await act(world);
    });
    if (!res) throw new Error('no response');
    expect(res.statusCode, res.body).toBe(status);
    expect(events).toEqual([event(world, res)]);
  });

  it('moving a pin publishes one event, for the friend moved, with its new place', async () => {
    const [me, first, second] = await Promise.all([social.user(), social.user(), social.user()]);
    await Promise.all([social.befriend(me, first), social.befriend(me, second)]);
    for (const f of [first, second]) expect((await api().post(me, f, 'pin')).statusCode).toBe(204);
    const events = await eventsDuring(social, [me], async () => expect((await api().post(me, second, 'pin', { order: 0 })).statusCode).toBe(204));
    expect(events).toEqual([{ type: 'social.friend.pinned.v1', data: { userId: me.id, friendId: second.id, order: 0 } }]);
  });

  it('carries the HTTP request id and the contract envelope', async () => {
    const [a, b] = await Promise.all([social.user(), social.user()]);
    const res = await social.app.inject({
      method: 'POST',
      url: '/api/friendships',
      headers: { authorization: `Bearer ${a.token}`, 'x-request-id': 'req-social-42' },
      payload: { friendId: b.id },
    });
    expect(res.statusCode).toBe(201);
    const [event] = (await social.events('social.friendship.requested.v1')).filter((e) => e.data.requesterId === a.id);
    expect(event).toEqual({ id: expect.any(String), type: 'social.friendship.requested.v1', occurredAt: expect.any(String), requestId: 'req-social-42', data: expect.any(Object) });
  });
});

/** Calls that change nothing: refused (4xx) or repeating the current state. */
const NO_OPS: Array<{ name: string; setup: Setup; act: (w: World) => Promise<LightMyRequestResponse>; status: number }> = [
  { name: 'a duplicate request', setup: 'a asked b', act: ({ a, b }) => api().request(a, b), status: 409 },
  { name: 'a request to a friend', setup: 'friends', act: ({ a, b }) => api().request(a, b), status: 409 },
  { name: 'a request to someone I blocked', setup: 'a blocked b', act: ({ a, b }) => api().request(a, b), status: 403 },
  { name: 'a request to someone who blocked me', setup: 'a blocked b', act: ({ a, b }) => api().request(b, a), status: 403 },
  { name: 'a self request', setup: 'strangers', act: ({ a }) => api().request(a, a), status: 400 },
  { name: 'the sender accepting', setup: 'a asked b', act: ({ a, requestId }) => api().respond(a, requestId, 'accept'), status: 403 },
  { name: 'a request back to a friend', setup: 'friends', act: ({ a, b }) => api().request(b, a), status: 409 },
  { name: 'unfriending a stranger', setup: 'strangers', act: ({ a, b }) => api().del(a, b), status: 404 },
  { name: 'blocking twice', setup: 'a blocked b', act: ({ a, b }) => api().post(a, b, 'block'), status: 409 },
  { name: 'unblocking someone not blocked', setup: 'strangers', act: ({ a, b }) => api().del(a, b, 'block'), status: 404 },
  { name: 'muting a stranger', setup: 'strangers', act: ({ a, b }) => api().post(a, b, 'mute'), status: 404 },
  { name: 'muting a muted friend', setup: 'a muted b', act: ({ a, b }) => api().post(a, b, 'mute'), status: 204 },
  { name: 'unmuting an unmuted friend', setup: 'friends', act: ({ a, b }) => api().del(a, b, 'mute'), status: 204 },
  { name: 'pinning a pinned friend', setup: 'a pinned b', act: ({ a, b }) => api().post(a, b, 'pin'), status: 204 },
  { name: 'pinning a pinned friend at its own order', setup: 'a pinned b', act: ({ a, b }) => api().post(a, b, 'pin', { order: 0 }), status: 204 },
  { name: 'moving the only pin past the end', setup: 'a pinned b', act: ({ a, b }) => api().post(a, b, 'pin', { order: 3 }), status: 204 },
  { name: 'unpinning an unpinned friend', setup: 'friends', act: ({ a, b }) => api().del(a, b, 'pin'), status: 204 },
  { name: 'pinning a stranger', setup: 'strangers', act: ({ a, b }) => api().post(a, b, 'pin'), status: 404 },
];

describe('no event without a change', () => {
  it.each(NO_OPS)('$name ($status)', async ({ setup, act, status }) => {
    const world = await arrange(setup);
    const events = await eventsDuring(social, [world.a, world.b], async () => {
      const res = await act(world);
      expect(res.statusCode, res.body).toBe(status);
    });
    expect(events).toEqual([]);
  });

  it('publishes nothing for a sixth pin', async () => {
    const [me, ...friends] = await Promise.all(Array.from({ length: 7 }, () => social.user())) as [TestUser, ...TestUser[]];
    await Promise.all(friends.map((f) => social.befriend(me, f)));
    for (const f of friends.slice(0, 5)) expect((await api().post(me, f, 'pin')).statusCode).toBe(204);
    const sixth = friends[5];
    if (!sixth) throw new Error('six friends expected');
    const events = await eventsDuring(social, [me], async () => expect((await api().post(me, sixth, 'pin')).statusCode).toBe(409));
    expect(events).toEqual([]);
  });

  it('a whole friendship story publishes one event per step, in order', async () => {
    const [a, b] = await Promise.all([social.user(), social.user()]);
    const { request, respond, post, del } = api();
    const sent = ok<Friendship>(await request(a, b), 201);
    ok(await respond(b, sent.id, 'accept'));
    await post(a, b, 'pin');
    await post(a, b, 'mute');
    await del(a, b, 'mute');
    await del(a, b, 'pin');
    await del(a, b);
    await post(b, a, 'block');
    await del(b, a, 'block');
    expect((await eventsAbout(social, a, b)).map((e) => e.type)).toEqual([
      'social.friendship.requested.v1',
      'social.friendship.accepted.v1',
      'social.friend.pinned.v1',
      'social.friend.muted.v1',
      'social.friend.unmuted.v1',
      'social.friend.unpinned.v1',
      'social.friendship.removed.v1',
      'social.user.blocked.v1',
      'social.user.unblocked.v1',
    ]);
  });
});
