import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LIVE_EVENT_NAMES, LIVE_PUSHES, streams, type EventEnvelope } from '../src/index';

/** Issue 37, item 7: live pushes are declared by their features; the hub relays the list. */
describe('the declared live pushes', () => {
  it('each relays an event of its own stream, and together they cover every pushed SSE event', () => {
    for (const push of LIVE_PUSHES) {
      const prefixes = streams[push.stream].subjects.map((subject) => subject.replace('>', ''));
      expect(prefixes.some((prefix) => push.event.startsWith(prefix)), `${push.event} on ${push.stream}`).toBe(true);
    }
    // `ready` is the stream's own hello, `presence` comes on core NATS (not a stream event).
    expect(new Set(LIVE_PUSHES.map((push) => push.name))).toEqual(new Set(LIVE_EVENT_NAMES.filter((name) => name !== 'ready' && name !== 'presence')));
  });

  it('delivers the bell count to its person only, and nothing for another event', () => {
    const bell = LIVE_PUSHES.find((push) => push.event === 'notification.changed.v1');
    const userId = randomUUID();
    const event: EventEnvelope = { id: randomUUID(), type: 'notification.changed.v1', occurredAt: new Date().toISOString(), data: { userId, unreadCount: 3 } };
    expect(bell?.delivery(event)).toEqual({ to: [userId], payload: { unreadCount: 3 } });
    expect(bell?.delivery({ ...event, type: 'session.deleted.v1', data: { sessionId: randomUUID(), userId } })).toBeNull();
  });

  it("delivers an invitation's answer to both its people, with no more than the invitation and the answer (issue 40)", () => {
    const answered = LIVE_PUSHES.find((push) => push.event === 'challenge.invitation.answered.v1');
    const [fromUserId, toUserId, invitationId, challengeId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const event: EventEnvelope = {
      id: randomUUID(),
      type: 'challenge.invitation.answered.v1',
      occurredAt: new Date().toISOString(),
      data: { invitationId, challengeId, fromUserId, toUserId, status: 'accepted' },
    };
    expect(answered?.delivery(event)).toEqual({ to: [fromUserId, toUserId], payload: { invitationId, challengeId, status: 'accepted' } });
  });

  it("delivers a backfill's `feed` push to the person whose timeline was filled, naming the author only", () => {
    const backfilled = LIVE_PUSHES.find((push) => push.event === 'session.timeline.backfilled.v1');
    const [userId, authorId] = [randomUUID(), randomUUID()];
    const event: EventEnvelope = { id: randomUUID(), type: 'session.timeline.backfilled.v1', occurredAt: new Date().toISOString(), data: { userId, authorId } };
    expect(backfilled?.name).toBe('feed');
    expect(backfilled?.delivery(event)).toEqual({ to: [userId], payload: { authorId } });
  });
});
