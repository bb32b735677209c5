import { randomUUID } from 'node:crypto';
import { streamNameFor, subjectFor, type EventEnvelope } from '@hoptrack/proto';
import { connectBus, createLogger, ensureStreams, startConsumer, type Bus, type RunningConsumer } from '@hoptrack/runtime';
import { eventually, testNamespace, testUserSnapshot } from '@hoptrack/testing';
import { tally } from '@hoptrack/testing/faults';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateNats, type PrivateServer } from '@hoptrack/testing/servers';

/**
 * Issue 9, item 5 (issue 18, item 3): NATS with file storage killed (-9) while
 * WINDOW publishes are in flight (sent, not yet acknowledged), in the middle
 * of 10,000, then restarted, with a durable consumer reading all along.
 * Publishing is done as the outbox relay does it: an event whose publish was
 * not acknowledged is published again with the same msg id (JetStream's
 * duplicate window drops a copy it already stored — the ack of such a
 * republish says `duplicate`). The stream must end with each event once, and
 * the consumer with every acknowledged event (at least once).
 */
const TOTAL = Number(process.env.NATS_FAULT_EVENTS ?? 10_000);
const WINDOW = 256;

let nats: PrivateServer;
let bus: Bus;
let consumer: RunningConsumer | undefined;
const logger = createLogger('nats-restart', 'silent');

beforeAll(async () => {
  nats = await privateNats();
  bus = await connectBus({ url: nats.url, name: 'nats-restart', namespace: testNamespace('natsrestart'), logger });
  await ensureStreams(bus, ['USERS']);
});
afterAll(async () => {
  await consumer?.stop().catch(() => undefined);
  await bus?.close().catch(() => undefined);
  await nats?.stop();
});

/**
 * `total` events published WINDOW at a time, NATS killed -9 at 30 % and restarted, a durable
 * consumer reading all along. `msgIdOf(eventId, attempt)` is the msg id a (re)publish carries: the
 * event's id on every attempt, as the relay does — or, the negative control, one per attempt.
 */
async function publishThroughKill(total: number, durable: string, msgIdOf: (eventId: string, attempt: number) => string) {
  await bus.jsm.streams.purge(streamNameFor(bus.namespace, 'USERS'));
  const killAt = Math.floor(total * 0.3);
  const received = new Map<string, number>();
  consumer = await startConsumer({
    bus,
    stream: 'USERS',
    durable,
    logger,
    ackWaitMs: 5000,
    handlers: {
      'user.updated.v1': async (event) => {
        received.set(event.id, (received.get(event.id) ?? 0) + 1);
      },
    },
  });

  const ids = Array.from({ length: total }, () => randomUUID());
  const acknowledged: string[] = [];
  const unknown = new Set<string>();
  let duplicateAcks = 0;
  let inFlight = 0;
  let inFlightAtKill = 0;
  let restarted: Promise<void> | undefined;
  // As the outbox relay: retry until JetStream acknowledges it.
  const publish = async (id: string) => {
    const envelope: EventEnvelope<'user.updated.v1'> = { id, type: 'user.updated.v1', occurredAt: new Date().toISOString(), data: testUserSnapshot(randomUUID()) };
    for (let attempt = 0; ; attempt++) {
      try {
        const ack = await bus.publish(subjectFor(bus.namespace, 'user.updated.v1'), JSON.stringify(envelope), msgIdOf(envelope.id, attempt));
        if (ack.duplicate) duplicateAcks += 1;
        acknowledged.push(id);
        return;
      } catch {
        unknown.add(id);
        if (attempt > 600) throw new Error('NATS did not come back');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  // A sliding window: WINDOW publishes always outstanding; the kill lands while they are.
  let next = 0;
  const lane = async () => {
    while (next < total) {
      const i = next++;
      if (i === killAt) {
        inFlightAtKill = inFlight;
        const killed = nats.kill();
        // Back once it is gone, while the publishers keep trying.
        restarted = killed.then(() => nats.start());
      }
      inFlight += 1;
      await publish(ids[i] as string);
      inFlight -= 1;
    }
  };
  await Promise.all(Array.from({ length: WINDOW }, lane));
  await restarted;

  await eventually(async () => acknowledged.every((id) => received.has(id)), 'every acknowledged event consumed', 90_000).catch(() => undefined);
  await consumer.stop();
  consumer = undefined;
  const delivered = tally(acknowledged, [...received.keys()]);
  const redelivered = [...received.values()].filter((n) => n > 1).length;
  const stored = (await bus.jsm.streams.info(streamNameFor(bus.namespace, 'USERS'))).state.messages;
  return { acknowledged: acknowledged.length, unknown: unknown.size, duplicateAcks, inFlightAtKill, delivered, redelivered, stored };
}

describe('NATS killed and restarted during publishing', () => {
  it(`stores each of ${TOTAL} events once and delivers every acknowledged one, with ${WINDOW} publishes in flight at the kill`, { timeout: 180_000 }, async () => {
    const run = await publishThroughKill(TOTAL, 'restart-survivor', (eventId) => eventId);
    // Each event stored once: as many messages as events, and (the consumer saw each id) none of another id.
    console.info(
      `[figure] NATS kill -9 with ${run.inFlightAtKill} publishes in flight, during ${TOTAL}: acknowledged ${run.acknowledged}; unknown ${run.unknown} (no ack when NATS died; republished with the same msg id, ${run.duplicateAcks} of them had been stored before the kill and were deduplicated); ` +
        `stored ${run.stored} for ${TOTAL} events (duplicated ${run.stored - TOTAL}); delivered ok ${run.delivered.ok + run.delivered.duplicated}, lost ${run.delivered.lost}; delivered twice ${run.redelivered} (at-least-once; consumers dedupe by event id)`,
    );
    expect(run.inFlightAtKill).toBeGreaterThan(0);
    expect(run.acknowledged).toBe(TOTAL);
    expect(run.delivered.lost).toBe(0);
    expect(run.stored).toBe(TOTAL);
  });

  it('control: a republish under a new msg id stores the events NATS had kept before the kill a second time', { timeout: 300_000 }, async () => {
    const total = 2000;
    // The control shows something only when NATS had stored some of the unacknowledged publishes when it died.
    // On a starved machine it may have read none of them off its socket yet (CI, 2026-12-04: 256 unknown, 0
    // kept): then the kill is tried again, three times at most, and the last try is what is asserted.
    let run: Awaited<ReturnType<typeof publishThroughKill>> | undefined;
    for (let attempt = 1; attempt <= 3 && !(run && run.stored > total); attempt++) {
      run = await publishThroughKill(total, `restart-control-${attempt}`, (eventId, republish) => (republish === 0 ? eventId : `${eventId}-${republish}`));
      console.info(`[figure] control (try ${attempt}), a new msg id per republish: ${run.unknown} unknown at the kill; stored ${run.stored} for ${total} events (duplicated ${run.stored - total})`);
    }
    expect(run?.unknown).toBeGreaterThan(0);
    expect(run?.stored).toBeGreaterThan(total);
  });
});
