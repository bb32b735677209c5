import { randomUUID } from 'node:crypto';
import { streamNameFor, subjectFor, type EventEnvelope } from '@hoptrack/proto';
import { connectBus, createLogger, ensureStreams, startConsumer, type Bus, type RunningConsumer } from '@hoptrack/runtime';
import { eventually, testNamespace, testUserSnapshot } from '@hoptrack/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateNats, type PrivateServer } from '@hoptrack/testing/servers';

/**
 * Issue 9, item 5: NATS with file storage killed (-9) in the middle of 10,000
 * publishes, then restarted, with a durable consumer reading all along.
 * Publishing is done as the outbox relay does it: an event whose publish was
 * not acknowledged is published again with the same msg id (JetStream's
 * duplicate window drops a second copy). The consumer must resume from its
 * ack floor and end with every acknowledged event.
 */
const TOTAL = Number(process.env.NATS_FAULT_EVENTS ?? 10_000);
const KILL_AT = Math.floor(TOTAL * 0.3);

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

describe('NATS killed and restarted during publishing', () => {
  it(`delivers every acknowledged event of ${TOTAL} to a durable consumer`, { timeout: 120_000 }, async () => {
    const received = new Map<string, number>();
    consumer = await startConsumer({
      bus,
      stream: 'USERS',
      durable: 'restart-survivor',
      logger,
      ackWaitMs: 5000,
      handlers: {
        'user.updated.v1': async (event) => {
          received.set(event.id, (received.get(event.id) ?? 0) + 1);
        },
      },
    });

    const acknowledged: string[] = [];
    let unknown = 0;
    let restarted: Promise<void> | undefined;
    for (let i = 0; i < TOTAL; i++) {
      const envelope: EventEnvelope<'user.updated.v1'> = { id: randomUUID(), type: 'user.updated.v1', occurredAt: new Date().toISOString(), data: testUserSnapshot(randomUUID()) };
      if (i === KILL_AT) {
        await nats.kill();
        // Back a moment later, while the publisher keeps trying.
        restarted = new Promise((resolve) => setTimeout(resolve, 1500)).then(() => nats.start());
      }
      // As the outbox relay: retry the same msg id until JetStream acknowledges it.
      for (let attempt = 0; ; attempt++) {
        try {
          await bus.publish(subjectFor(bus.namespace, 'user.updated.v1'), JSON.stringify(envelope), envelope.id);
          acknowledged.push(envelope.id);
          break;
        } catch {
          unknown += attempt === 0 ? 1 : 0;
          if (attempt > 200) throw new Error('NATS did not come back');
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    }
    await restarted;

    await eventually(async () => acknowledged.every((id) => received.has(id)), 'every acknowledged event consumed', 60_000).catch(() => undefined);
    const lost = acknowledged.filter((id) => !received.has(id)).length;
    const redelivered = [...received.values()].filter((n) => n > 1).length;
    console.info(
      `[figure] NATS kill -9 during ${TOTAL} publishes: ok ${acknowledged.length - lost}, lost ${lost}, unknown ${unknown} (not acknowledged when NATS died; republished with the same msg id), delivered twice ${redelivered} (at-least-once; consumers dedupe by event id)`,
    );
    expect(acknowledged).toHaveLength(TOTAL);
    expect(lost).toBe(0);
    // Nothing was kept twice in the stream: the republishes were deduplicated by msg id.
    const info = await bus.jsm.streams.info(streamNameFor(bus.namespace, 'USERS'));
    expect(info.state.messages).toBe(TOTAL);
  });
});
