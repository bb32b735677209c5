import { randomUUID } from 'node:crypto';
import { PRESENCE_IDS_MAX, type PresenceEntry } from '@hoptrack/proto';
import { eventually } from '@hoptrack/testing';
import { startGateway } from '@hoptrack/testing/gateway';
import { openLive, type LiveClient, type LiveEvent } from '@hoptrack/testing/live';
import type { RunningProcess } from '@hoptrack/testing/processes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presencePrefix } from '../src/presence/store';
import { expectError, ok } from './helpers';
import { startTestMessaging, type Client, type Instance, type TestMessaging } from './support';

/**
 * Presence (issue 25, item 1): online while a live stream is open on any
 * instance, offline a grace after the last one closed, seen by friends only,
 * hidden by the switch, never across a block. A short grace and heartbeat
 * keep the waits short; every wait is on a condition.
 */
const GRACE_MS = 400;
const HEARTBEAT_MS = 150;

let t: TestMessaging;
let second: Instance;
let gateway: RunningProcess;
const opened: LiveClient[] = [];

beforeAll(async () => {
  t = await startTestMessaging({ PRESENCE_GRACE_MS: String(GRACE_MS), PRESENCE_HEARTBEAT_MS: String(HEARTBEAT_MS) });
  second = await t.startInstance();
  gateway = await startGateway({
    env: { MESSAGING_SERVICE_URL: `${t.primary.url},${second.url}`, GATEWAY_RATE_LIMIT_PREFIX: `${t.config.BUS_NAMESPACE}:gw:` },
  });
});
afterAll(async () => {
  for (const client of opened) client.close();
  await gateway?.stop();
  await t?.close();
});

const live = async (url: string, client: Client): Promise<LiveClient> => {
  const stream = await openLive(url, client.token);
  expect(stream.status).toBe(200);
  opened.push(stream);
  return stream;
};

/** What `viewer` is told of `ids` (200 expected). */
const presenceOf = async (viewer: Client, ...ids: string[]): Promise<PresenceEntry[]> => ok<PresenceEntry[]>(await viewer.get(`/api/presence?ids=${ids.join(',')}`));
const entryOf = async (viewer: Client, person: Client): Promise<PresenceEntry | undefined> => (await presenceOf(viewer, person.id)).find((e) => e.userId === person.id);

const isPresence = (userId: string, online: boolean) => (e: LiveEvent) =>
  e.event === 'presence' && (e.data as PresenceEntry).userId === userId && (e.data as PresenceEntry).online === online;

/** A presence key in Redis (store.ts names them). */
const presenceKey = (key: string): string => `${presencePrefix(t.config.BUS_NAMESPACE)}:${key}`;

/** One heartbeat on every instance: renewals and a sweep done. */
const tickAll = () => Promise.all([t.primary.presence.tick(), second.presence.tick()]);

/**
 * Waits until the grace of the person's closed stream has run out in the
 * store (only `open` of their streams still count), then makes every
 * instance renew and sweep once: whatever the sweep would do about the
 * closed stream has been done.
 */
async function afterGraceOfClosedStream(person: Client, open = 1): Promise<void> {
  const conns = presenceKey(`conns:${person.id}`);
  await eventually(async () => (await t.redis.zcount(conns, `(${Date.now()}`, '+inf')) === open, 'the closed stream’s grace over');
  await tickAll();
}

/** Waits until presence holds one stream of the person (opened() has touched it, as their switch allows). */
async function streamHeld(person: Client): Promise<void> {
  await eventually(async () => (await t.redis.zcount(presenceKey(`conns:${person.id}`), `(${Date.now()}`, '+inf')) === 1, 'the stream held by presence');
}

/** What the store recorded of the person's presence: their place in `online` and their last seen. */
async function recorded(person: Client): Promise<{ online: string | null; seen: string | null }> {
  const [online, seen] = await Promise.all([t.redis.zscore(presenceKey('online'), person.id), t.redis.get(presenceKey(`seen:${person.id}`))]);
  return { online, seen };
}

const presencePushesOf = (stream: LiveClient, person: Client): PresenceEntry[] =>
  stream.events.filter((e) => e.event === 'presence' && (e.data as PresenceEntry).userId === person.id).map((e) => e.data as PresenceEntry);

/** Three people: Bob, his friend Alice, and Carol who knows neither. */
async function trio(options: { bobShows?: boolean } = {}): Promise<{ alice: Client; bob: Client; carol: Client }> {
  const alice = await t.user();
  const bob = await t.user({ showOnlineStatus: options.bobShows ?? true });
  const carol = await t.user();
  await t.befriend(alice, bob);
  return { alice, bob, carol };
}

describe('presence', () => {
  it('a friend sees Bob online while a stream of his is open on another instance, then offline with a last seen after the grace', async () => {
    const { alice, bob } = await trio();
    expect(await entryOf(alice, bob)).toEqual({ userId: bob.id, online: false, lastSeenAt: null });
    const aliceStream = await live(t.primary.url, alice);

    // Bob's stream is on the second instance, Alice asks the primary: the state is shared in Redis.
    const bobStream = await live(second.url, bob);
    await eventually(async () => (await entryOf(alice, bob))?.online === true, 'Bob online for Alice');
    expect(await entryOf(alice, bob)).toEqual({ userId: bob.id, online: true, lastSeenAt: null });
    await aliceStream.waitFor(isPresence(bob.id, true), 'the online push on Alice’s stream');

    const closedAt = Date.now();
    bobStream.close();
    // Within the grace he still counts as online: a reload does not flicker.
    expect((await entryOf(alice, bob))?.online).toBe(true);
    const offline = await aliceStream.waitFor(isPresence(bob.id, false), 'the offline push after the grace');
    expect(Date.now() - closedAt).toBeGreaterThanOrEqual(GRACE_MS);
    const lastSeen = (offline.data as PresenceEntry).lastSeenAt;
    expect(lastSeen).not.toBeNull();
    // Last seen is when his stream closed, not when the grace ran out.
    expect(Math.abs(new Date(lastSeen as string).getTime() - closedAt)).toBeLessThan(GRACE_MS);
    expect(await entryOf(alice, bob)).toEqual({ userId: bob.id, online: false, lastSeenAt: lastSeen });
  });

  it('reopening within the grace keeps Bob online without an offline push', async () => {
    const { alice, bob } = await trio();
    const aliceStream = await live(t.primary.url, alice);
    const first = await live(t.primary.url, bob);
    await aliceStream.waitFor(isPresence(bob.id, true), 'online');
    first.close();
    await live(second.url, bob);
    await afterGraceOfClosedStream(bob);
    expect((await entryOf(alice, bob))?.online).toBe(true);
    expect(aliceStream.events.filter(isPresence(bob.id, false))).toEqual([]);
  });

  it('counts every stream of a person across instances: online until the last one closes', async () => {
    const { alice, bob } = await trio();
    const aliceStream = await live(second.url, alice);
    const onPrimary = await live(t.primary.url, bob);
    const onSecond = await live(second.url, bob);
    await aliceStream.waitFor(isPresence(bob.id, true), 'online');
    onPrimary.close();
    await afterGraceOfClosedStream(bob);
    expect((await entryOf(alice, bob))?.online).toBe(true);
    expect(aliceStream.events.filter(isPresence(bob.id, false))).toEqual([]);
    onSecond.close();
    await aliceStream.waitFor(isPresence(bob.id, false), 'offline once the last one closed');
    expect((await entryOf(alice, bob))?.online).toBe(false);
  });

  it('a crashed instance’s streams run out: no heartbeat, offline for everyone once its renewals stop', async () => {
    const { alice, bob } = await trio();
    const third = await t.startInstance();
    const aliceStream = await live(t.primary.url, alice);
    await live(third.url, bob);
    await aliceStream.waitFor(isPresence(bob.id, true), 'online');
    // The instance stops renewing but never says the stream closed, as a killed process would.
    third.presence.stop();
    third.presence.closed = () => undefined;
    await aliceStream.waitFor(isPresence(bob.id, false), 'offline when his streams ran out', 5000);
    await third.stop();
  });

  it('the switch off hides Bob from everyone, last seen included, and tells his friends at once; on shows him again', async () => {
    const { alice, bob } = await trio();
    const aliceStream = await live(t.primary.url, alice);
    await live(second.url, bob);
    await aliceStream.waitFor(isPresence(bob.id, true), 'online');

    await t.updateUser(bob, { showOnlineStatus: false });
    const hidden = await aliceStream.waitFor((e) => isPresence(bob.id, false)(e), 'the hiding push');
    expect(hidden.data).toEqual({ userId: bob.id, online: false, lastSeenAt: null });
    expect(await presenceOf(alice, bob.id)).toEqual([]);

    await t.updateUser(bob, { showOnlineStatus: true });
    await eventually(async () => aliceStream.events.filter(isPresence(bob.id, true)).length === 2, 'the showing push');
    expect(await entryOf(alice, bob)).toEqual({ userId: bob.id, online: true, lastSeenAt: null });
  });

  it('with the switch off from the start, no friend ever sees Bob, nor gets a push', async () => {
    const { alice, bob, carol } = await trio({ bobShows: false });
    await t.befriend(carol, alice);
    const aliceStream = await live(t.primary.url, alice);
    await live(t.primary.url, bob);
    // His stream is held, but nothing of his presence is recorded (issue 39, finding 11).
    await streamHeld(bob);
    expect(await recorded(bob)).toEqual({ online: null, seen: null });
    // Carol, who shows hers, comes online after him: her push reaching Alice is the barrier for his.
    await live(second.url, carol);
    await aliceStream.waitFor(isPresence(carol.id, true), 'Carol’s push');
    expect(await presenceOf(alice, bob.id)).toEqual([]);
    expect(aliceStream.events.filter((e) => e.event === 'presence' && (e.data as PresenceEntry).userId === bob.id)).toEqual([]);
  });

  it('a stream opened while hidden, renewed and closed, leaves no last seen from that time once the switch is on (issue 39, finding 11)', async () => {
    const { alice, bob } = await trio();
    const aliceStream = await live(t.primary.url, alice);
    // Seen while shown: his last seen from before he hid.
    const before = await live(second.url, bob);
    await aliceStream.waitFor(isPresence(bob.id, true), 'online');
    before.close();
    const offline = await aliceStream.waitFor(isPresence(bob.id, false), 'offline after the grace');
    const lastSeenShown = (offline.data as PresenceEntry).lastSeenAt;
    expect(lastSeenShown).not.toBeNull();

    await t.updateUser(bob, { showOnlineStatus: false });
    const hiddenStream = await live(second.url, bob);
    await streamHeld(bob);
    await tickAll();
    await tickAll();
    expect(await recorded(bob)).toEqual({ online: null, seen: String(new Date(lastSeenShown as string).getTime()) });
    hiddenStream.close();
    await afterGraceOfClosedStream(bob, 0);

    await t.updateUser(bob, { showOnlineStatus: true });
    expect(await entryOf(alice, bob)).toEqual({ userId: bob.id, online: false, lastSeenAt: lastSeenShown });
    // Friends are told his state again, the last seen from before he hid; no push ever named another time.
    await eventually(async () => presencePushesOf(aliceStream, bob).filter((p) => !p.online && p.lastSeenAt === lastSeenShown).length === 2, 'the showing push');
    expect(presencePushesOf(aliceStream, bob).filter((p) => p.lastSeenAt !== null && p.lastSeenAt !== lastSeenShown)).toEqual([]);
  });

  it('a stream still open when the switch turns on shows Bob online at once, not a last seen', async () => {
    const { alice, bob } = await trio({ bobShows: false });
    const aliceStream = await live(t.primary.url, alice);
    await live(second.url, bob);
    await streamHeld(bob);
    await tickAll();
    expect(await recorded(bob)).toEqual({ online: null, seen: null });
    // No heartbeat runs meanwhile: the switch itself brings his open stream to count.
    t.primary.presence.stop();
    second.presence.stop();
    try {
      await t.updateUser(bob, { showOnlineStatus: true });
      await aliceStream.waitFor(isPresence(bob.id, true), 'the online push');
      expect(await entryOf(alice, bob)).toEqual({ userId: bob.id, online: true, lastSeenAt: null });
      expect(presencePushesOf(aliceStream, bob).filter((p) => !p.online)).toEqual([]);
    } finally {
      t.primary.presence.start();
      second.presence.start();
    }
  });

  it('with the `hidden` set lost in Redis, the people table still hides Bob: nothing of his stream is recorded', async () => {
    // Hidden from registration: no snapshot reaction is in flight that could write the set back after it is lost.
    const { alice, bob } = await trio({ bobShows: false });
    // Redis keeps nothing on disk: a restart loses the set, the table keeps the switch.
    await t.redis.del(presenceKey('hidden'));
    const stream = await live(t.primary.url, bob);
    await streamHeld(bob);
    await tickAll();
    expect(await recorded(bob)).toEqual({ online: null, seen: null });
    stream.close();
    await afterGraceOfClosedStream(bob, 0);
    expect(await recorded(bob)).toEqual({ online: null, seen: null });

    await t.updateUser(bob, { showOnlineStatus: true });
    expect(await entryOf(alice, bob)).toEqual({ userId: bob.id, online: false, lastSeenAt: null });
  });

  it('a stranger never sees Bob online, nor gets his pushes', async () => {
    const { alice, bob, carol } = await trio();
    const aliceStream = await live(t.primary.url, alice);
    const carolStream = await live(t.primary.url, carol);
    await live(second.url, bob);
    // The same instance writes both streams from the same push: had Carol been in its audience, she would have it now.
    await aliceStream.waitFor(isPresence(bob.id, true), 'Alice is told');
    expect(carolStream.events.filter((e) => e.event === 'presence')).toEqual([]);
    expect(await presenceOf(carol, bob.id)).toEqual([]);
  });

  it('a block hides presence both ways, even between former friends', async () => {
    const { alice, bob } = await trio();
    await live(second.url, bob);
    await eventually(async () => (await entryOf(alice, bob))?.online === true, 'Bob online for Alice');
    await t.block(bob, alice);
    expect(await presenceOf(alice, bob.id)).toEqual([]);
    expect(await presenceOf(bob, alice.id)).toEqual([]);
    // Befriended again (an event replayed late): the block still wins.
    await t.befriend(alice, bob);
    expect(await presenceOf(alice, bob.id)).toEqual([]);
  });

  it('answers only the people the viewer may see, and the viewer themself', async () => {
    const { alice, bob, carol } = await trio();
    const entries = await presenceOf(alice, bob.id, carol.id, alice.id, randomUUID());
    expect(entries.map((e) => e.userId).sort()).toEqual([alice.id, bob.id].sort());
  });

  it('validates ids: 400 naming the field and the reason', async () => {
    const alice = await t.user();
    expectError(await alice.get('/api/presence'), 400, { field: 'ids', message: /ids/ });
    expectError(await alice.get('/api/presence?ids='), 400, { field: 'ids', message: 'ids must name at least one user' });
    expectError(await alice.get('/api/presence?ids=not-an-id'), 400, { field: 'ids', message: 'ids must be user ids separated by commas' });
    const tooMany = Array.from({ length: PRESENCE_IDS_MAX + 1 }, () => randomUUID()).join(',');
    expectError(await alice.get(`/api/presence?ids=${tooMany}`), 400, { field: 'ids', message: `ids may name at most ${PRESENCE_IDS_MAX} users` });
    const atMost = Array.from({ length: PRESENCE_IDS_MAX }, () => randomUUID()).join(',');
    expect(ok<PresenceEntry[]>(await alice.get(`/api/presence?ids=${atMost}`))).toEqual([]);
  });

  it('through the gateway: Bob’s stream and Alice’s question both go the public way', async () => {
    const { alice, bob, carol } = await trio();
    const ask = (viewer: Client) =>
      fetch(`${gateway.url}/api/presence?ids=${bob.id}`, { headers: { authorization: `Bearer ${viewer.token}` } }).then(async (res) => ({
        status: res.status,
        body: (await res.json()) as PresenceEntry[],
      }));
    const bobStream = await live(gateway.url, bob);
    await eventually(async () => (await ask(alice)).body[0]?.online === true, 'Bob online through the gateway');
    expect(await ask(carol)).toEqual({ status: 200, body: [] });
    bobStream.close();
    await eventually(async () => (await ask(alice)).body[0]?.online === false, 'Bob offline through the gateway');
    const invalid = await fetch(`${gateway.url}/api/presence?ids=nope`, { headers: { authorization: `Bearer ${alice.token}` } });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ statusCode: 400, field: 'ids' });
  });

  it('refuses a call without a valid token', async () => {
    const res = await fetch(`${t.primary.url}/api/presence?ids=${randomUUID()}`);
    expect(res.status).toBe(401);
  });
});
