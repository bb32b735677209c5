import { randomBytes } from 'node:crypto';
import type { PresenceEntry } from '@hoptrack/proto';
import { eventually } from '@hoptrack/testing';
import { callApi, expectApi, makeFriends, registerUser, type RegisteredUser } from '@hoptrack/testing/api';
import { openLive } from '@hoptrack/testing/live';
import { startStack, type Stack } from '@hoptrack/testing/stack';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 39, the attacker's second pass, finding 11: presence. A live stream
 * opened while Show Online Status was off was recorded all the same, and
 * once the switch went on its friends were shown the hidden visit as "last
 * seen". Through the gateway, as the tester met it; the test failed before
 * its fix. A short heartbeat and grace keep the waits short; every wait is
 * on a condition (the presence keys in Redis, the presence answer).
 */
const HEARTBEAT_MS = 200;
const GRACE_MS = 300;

let stack: Stack;
let redis: Redis;
// Our own namespace: the presence keys live under it in Redis (presencePrefix).
const namespace = `e2e${randomBytes(4).toString('hex')}`;
const presenceKey = (key: string) => `${namespace}:messaging:presence:${key}`;

beforeAll(async () => {
  stack = await startStack({
    serveWeb: false,
    namespace,
    env: { GATEWAY_RATE_LIMIT_MAX: '100000', PRESENCE_HEARTBEAT_MS: String(HEARTBEAT_MS), PRESENCE_GRACE_MS: String(GRACE_MS) },
  });
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
});
afterAll(async () => {
  redis?.disconnect();
  await stack?.stop();
});

/** What `viewer` is told of `person`'s presence: their entry, or none when hidden. */
async function presenceOf(viewer: RegisteredUser, person: RegisteredUser): Promise<PresenceEntry | undefined> {
  const entries = (await expectApi(stack.baseUrl, viewer.token, 'GET', `/api/presence?ids=${person.id}`)) as PresenceEntry[];
  return entries.find((entry) => entry.userId === person.id);
}

const setShown = (user: RegisteredUser, showOnlineStatus: boolean) => expectApi(stack.baseUrl, user.token, 'PUT', '/api/privacy', { showOnlineStatus });

describe('presence never records time spent hidden', () => {
  it('a stream opened and closed while the switch was off leaves no last seen once it is on again (finding 11)', async () => {
    const [ann, bob] = [await registerUser(stack.baseUrl, 'spann'), await registerUser(stack.baseUrl, 'spbob')];
    await makeFriends(stack.baseUrl, ann, bob);
    // Messaging learns of the friendship by events: Ann sees Bob (never seen yet) once it has.
    await eventually(async () => (await presenceOf(ann, bob)) !== undefined, 'messaging knows the friendship');
    expect(await presenceOf(ann, bob)).toEqual({ userId: bob.id, online: false, lastSeenAt: null });

    // The privacy answer waits for the other services' read models: hidden from here on.
    await setShown(bob, false);
    expect(await presenceOf(ann, bob)).toBeUndefined();

    const conns = presenceKey(`conns:${bob.id}`);
    const stream = await openLive(stack.baseUrl, bob.token);
    expect(stream.status).toBe(200);
    await eventually(async () => (await redis.zcard(conns)) === 1, 'his stream held by presence');
    const firstUntil = Number((await redis.zrange(conns, 0, 0, 'WITHSCORES'))[1]);
    // Kept past a heartbeat: the stream's time was renewed.
    await eventually(async () => Number((await redis.zrange(conns, 0, 0, 'WITHSCORES'))[1]) > firstUntil, 'his stream renewed by a heartbeat');
    stream.close();
    await stream.ended;
    // Past the grace: nothing of his counts any longer, and no sweep still has him to take out.
    await eventually(
      async () => (await redis.zcount(conns, `(${Date.now()}`, '+inf')) === 0 && (await redis.zscore(presenceKey('online'), bob.id)) === null,
      'his closed stream’s grace over',
    );

    await setShown(bob, true);
    const shown = await presenceOf(ann, bob);
    const seen = await callApi(stack.baseUrl, bob.token, 'GET', `/api/presence?ids=${bob.id}`);
    console.info(`[figure] hidden visit: Ann is told ${JSON.stringify(shown)}; Bob's own view ${JSON.stringify(seen.body)}`);
    // He was never seen while shown: no last seen at all, and never a time from the hidden visit.
    expect(shown).toEqual({ userId: bob.id, online: false, lastSeenAt: null });
  });
});
