import { randomUUID } from 'node:crypto';
import { streamNameFor, subjectFor, type EventData, type EventEnvelope, type MyStats, type UserStats } from '@hoptrack/proto';
import { eventually, publishEvent } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from './helpers';
import { startTestSocial, type TestSocial, type TestUser } from './support';

/**
 * session_facts, fed by the sessions service's session.created/updated/deleted.v1,
 * behind the stat tiles: /api/users/{id}/stats (totalSessions, totalHours) and
 * /api/me/stats (weeklyTotal: beers in the last 7 days). Replays change nothing.
 */
let social: TestSocial;
let durable: string;
beforeAll(async () => {
  // The definition's own session-facts consumer, beside the people table's.
  social = await startTestSocial({ consumers: ['users', 'sessions'] });
  durable = social.config.SESSIONS_CONSUMER;
});
afterAll(async () => {
  await social?.close();
});

/** Waits until the sessions consumer has acknowledged everything on the SESSIONS stream. */
const settle = () =>
  eventually(
    async () => {
      const stream = streamNameFor(social.config.BUS_NAMESPACE, 'SESSIONS');
      const [info, state] = await Promise.all([social.bus.jsm.consumers.info(stream, durable), social.bus.jsm.streams.info(stream)]);
      return info.ack_floor.stream_seq >= state.state.last_seq && info.num_pending === 0 && info.num_ack_pending === 0;
    },
    'sessions consumer caught up',
    10_000,
  );

const DAY = 24 * 3600 * 1000;
const facts = (user: TestUser, beerCount: number, duration: number, ageMs = 0): EventData<'session.created.v1'> => {
  const at = new Date(Date.now() - ageMs).toISOString();
  return { sessionId: randomUUID(), userId: user.id, beerCount, duration, createdAt: at, updatedAt: at };
};
const publish = async <T extends 'session.created.v1' | 'session.updated.v1' | 'session.deleted.v1'>(type: T, data: EventData<T>) => {
  const envelope = await publishEvent(social.bus, type, data);
  await settle();
  return envelope;
};
const statsOf = async (viewer: TestUser, user: TestUser) => {
  const s = ok<UserStats>(await social.as(viewer).get(`/api/users/${user.id}/stats`));
  return { totalSessions: s.totalSessions, totalHours: s.totalHours };
};
const weekly = async (user: TestUser) => ok<MyStats>(await social.as(user).get('/api/me/stats')).weeklyTotal;

describe('session stats from session events', () => {
  it('created, updated and deleted sessions move totalSessions, totalHours and weeklyTotal', async () => {
    const [me, viewer] = await Promise.all([social.user(), social.user()]);
    expect(await statsOf(viewer, me)).toEqual({ totalSessions: 0, totalHours: 0 });
    expect(await weekly(me)).toBe(0);

    const s1 = facts(me, 3, 90);
    await publish('session.created.v1', s1);
    expect(await statsOf(viewer, me)).toEqual({ totalSessions: 1, totalHours: 1.5 });
    expect(await weekly(me)).toBe(3);

    // An old session counts in the totals, not in the week.
    const old = facts(me, 10, 30, 8 * DAY);
    await publish('session.created.v1', old);
    expect(await statsOf(viewer, me)).toEqual({ totalSessions: 2, totalHours: 2 });
    expect(await weekly(me)).toBe(3);
    const s3 = facts(me, 2, 45, 6 * DAY);
    await publish('session.created.v1', s3);
    expect(await statsOf(viewer, me)).toEqual({ totalSessions: 3, totalHours: 2.8 }); // 165 min = 2.75 h, one decimal
    expect(await weekly(me)).toBe(5);

    await publish('session.updated.v1', { ...s1, beerCount: 5, duration: 150, updatedAt: new Date().toISOString() });
    expect(await statsOf(viewer, me)).toEqual({ totalSessions: 3, totalHours: 3.8 }); // 225 min
    expect(await weekly(me)).toBe(7);

    await publish('session.deleted.v1', { sessionId: s1.sessionId, userId: me.id });
    expect(await statsOf(viewer, me)).toEqual({ totalSessions: 2, totalHours: 1.3 }); // 75 min
    expect(await weekly(me)).toBe(2);
    expect(ok<UserStats>(await social.as(me).get(`/api/users/${me.id}/stats`))).toMatchObject({ totalSessions: 2 });
    // Someone else's sessions are theirs.
    expect(await weekly(viewer)).toBe(0);
    expect(await statsOf(me, viewer)).toEqual({ totalSessions: 0, totalHours: 0 });
  });

  it('a replayed event (same envelope, new message id) changes nothing', async () => {
    const [me, viewer] = await Promise.all([social.user(), social.user()]);
    const replay = async (envelope: EventEnvelope) => {
      await social.bus.publish(subjectFor(social.config.BUS_NAMESPACE, envelope.type), JSON.stringify(envelope), randomUUID());
      await settle();
    };
    const s1 = facts(me, 4, 60);
    const created = await publish('session.created.v1', s1);
    const s2 = facts(me, 1, 30);
    await publish('session.created.v1', s2);
    await replay(created);
    expect(await statsOf(viewer, me)).toEqual({ totalSessions: 2, totalHours: 1.5 });
    expect(await weekly(me)).toBe(5);

    const updated = await publish('session.updated.v1', { ...s1, beerCount: 6, duration: 120 });
    expect(await weekly(me)).toBe(7);
    // A later update, then the earlier one replayed: the inbox keeps the later state.
    await publish('session.updated.v1', { ...s1, beerCount: 8, duration: 180 });
    await replay(updated);
    expect(await statsOf(viewer, me)).toEqual({ totalSessions: 2, totalHours: 3.5 });
    expect(await weekly(me)).toBe(9);

    const deleted = await publish('session.deleted.v1', { sessionId: s2.sessionId, userId: me.id });
    await replay(deleted);
    await replay(created); // the first session still exists: still counted once
    expect(await statsOf(viewer, me)).toEqual({ totalSessions: 1, totalHours: 3 });
    expect(await weekly(me)).toBe(8);

    const deleted1 = await publish('session.deleted.v1', { sessionId: s1.sessionId, userId: me.id });
    await replay(created); // an old created after its delete does not bring it back
    await replay(deleted1);
    expect(await statsOf(viewer, me)).toEqual({ totalSessions: 0, totalHours: 0 });
    expect(await weekly(me)).toBe(0);
  });

  it('a private profile keeps its stats from non-friends (403)', async () => {
    const [me, stranger] = await Promise.all([social.user({ private: true }), social.user()]);
    await publish('session.created.v1', facts(me, 1, 60));
    const res = await social.as(stranger).get(`/api/users/${me.id}/stats`);
    expect(res.statusCode).toBe(403);
    expect(await weekly(me)).toBe(1);
  });
});
