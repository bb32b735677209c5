import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definePush, LIVE_EVENTS_PATH, subjectFor, type EventData, type EventEnvelope } from '@hoptrack/proto';
import { eventually, memoryLogger, publishEvent, testNamespace, testUserSnapshot } from '@hoptrack/testing';
import { openLive, type LiveClient } from '@hoptrack/testing/live';
import { connectBus, deleteStreams, ensureStreams, type Bus } from '../src/bus/connection';
import { startLiveFeed, type LiveReactions, type RunningLiveFeed } from '../src/live/feed';
import { LiveHub } from '../src/live/hub';
import { audienceLiveReactions } from '../src/audience/live';

/**
 * The live hub and feed of the platform (issue 37, item 7): per-user SSE
 * streams, fed from the bus by ephemeral consumers from now with the declared
 * pushes, and the extension hooks (reactions by stream, core-NATS subjects)
 * the audience module and services add their behaviour through. Real NATS
 * and real HTTP streams; the test's server takes `Bearer <userId>:<tokenVersion>`.
 */

const { logger, lines } = memoryLogger('live-test', 'debug');
const registry = new Registry();
const observed: string[] = [];
let bus: Bus;
let hub: LiveHub;
let feed: RunningLiveFeed;
let server: Server;
let url: string;
const opened: LiveClient[] = [];

/** Every MESSAGES event the feed handed to reactions, by id. */
const seen: string[] = [];
/** Set while a deletion's first reaction holds the later ones. */
let release: (() => void) | undefined;
const order: string[] = [];
/** Published before the feed starts: never read (from now). */
let before: EventEnvelope<'message.sent.v1'>;

/** A push of the test's own: the feed relays it knowing nothing of it. */
const messagePush = definePush({
  stream: 'MESSAGES',
  event: 'message.sent.v1',
  name: 'message',
  to: (data) => [data.recipientId],
  payload: (data) => ({ messageId: data.messageId }),
});

const recording: LiveReactions = {
  'message.sent.v1'(event) {
    seen.push(event.id);
  },
  'user.deleted.v1'() {
    order.push('held');
    return new Promise<void>((resolve) => {
      release = () => {
        order.push('released');
        resolve();
      };
    });
  },
};

const message = (recipientId: string): EventData<'message.sent.v1'> => ({
  conversationId: randomUUID(),
  messageId: randomUUID(),
  senderId: randomUUID(),
  recipientId,
  content: 'hello',
  createdAt: new Date().toISOString(),
});

const live = async (userId: string, tokenVersion = 0): Promise<LiveClient> => {
  const client = await openLive(url, `${userId}:${tokenVersion}`);
  opened.push(client);
  return client;
};

/** Resolves once the stream ended (a bounded wait for an end that must come). */
const endsWithin = (client: LiveClient, ms: number) =>
  Promise.race([client.ended.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

/**
 * The stream is open now: a push the hub writes to the person reaches it.
 * Proof of life rather than "not ended within a while", which a slow machine
 * could pass by ending it late.
 */
async function stillOpen(client: LiveClient, userId: string): Promise<void> {
  const probe = randomUUID();
  hub.deliver([userId], 'message', { probe });
  await client.waitFor((e) => (e.data as { probe?: string }).probe === probe, `a probe on ${userId}'s open stream`);
}

const gauge = async (name: string) => (await registry.getSingleMetric(name)?.get())?.values[0]?.value;

beforeAll(async () => {
  bus = await connectBus({ url: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', name: 'live-test', namespace: testNamespace('live'), logger });
  await ensureStreams(bus);
  hub = new LiveHub({
    maxConnections: 100,
    maxPerUser: 2,
    heartbeatMs: 60_000,
    registry,
    metricPrefix: 'test_live',
    logger,
    observer: { opened: (userId) => observed.push(`opened ${userId}`), closed: (userId) => observed.push(`closed ${userId}`) },
  });
  server = createServer((req, res) => {
    const [userId = '', version = '0'] = (req.headers.authorization ?? '').replace(/^Bearer /, '').split(':');
    if (req.url !== LIVE_EVENTS_PATH || !userId) {
      res.writeHead(404).end();
      return;
    }
    hub.open(userId, Number(version), res, { 'x-test': 'yes' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  before = await publishEvent(bus, 'message.sent.v1', message(randomUUID()));
  feed = await startLiveFeed({
    bus,
    hub,
    pushes: [messagePush],
    reactions: [recording, audienceLiveReactions],
    subjects: [
      {
        subject: subjectFor(bus.namespace, 'presence.changed.v1'),
        react(event, to) {
          if (event.type !== 'presence.changed.v1') return;
          const { audience, ...presence } = event.data as EventData<'presence.changed.v1'>;
          to.deliver(audience, 'presence', presence);
        },
      },
    ],
    logger,
  });
});
afterAll(async () => {
  release?.();
  for (const client of opened) client.close();
  await feed?.stop();
  hub?.closeAll();
  await new Promise((resolve) => server?.close(resolve));
  await deleteStreams(bus);
  await bus.close();
});

describe('the live hub', () => {
  it('opens a stream with `ready`, ends the oldest beyond the per-user limit, counts under its metric prefix and tells its observer', async () => {
    const alice = randomUUID();
    const first = await live(alice);
    expect(first.status).toBe(200);
    expect(first.contentType).toMatch(/^text\/event-stream/);
    expect(first.events[0]).toEqual({ event: 'ready', data: {} });
    const second = await live(alice);
    expect(await gauge('test_live_streams')).toBeGreaterThanOrEqual(2);
    const third = await live(alice);
    // Two at most: the first goes.
    expect(await endsWithin(first, 5000)).toBe(true);
    await stillOpen(second, alice);
    await eventually(() => observed.filter((line) => line === `closed ${alice}`).length === 1, 'observer told of the close');
    expect(observed.filter((line) => line === `opened ${alice}`)).toHaveLength(3);
    second.close();
    third.close();
    await eventually(() => observed.filter((line) => line === `closed ${alice}`).length === 3, 'observer told of every close');
    const delivered = await registry.getSingleMetric('test_live_events_delivered_total')?.get();
    expect(delivered?.values.find((v) => v.labels.event === 'ready')?.value).toBeGreaterThanOrEqual(3);
  });
});

describe('the live feed', () => {
  it('relays a declared push to its recipients’ streams only, read from now', async () => {
    const bob = randomUUID();
    const carol = randomUUID();
    const bobStream = await live(bob);
    const carolStream = await live(carol);
    const sent = await publishEvent(bus, 'message.sent.v1', message(bob));
    const got = await bobStream.waitFor((e) => e.event === 'message', 'the push');
    expect(got.data).toEqual({ messageId: sent.data.messageId });
    // In stream order: had the feed read the event published before it started, it would have seen it first.
    await eventually(() => seen.includes(sent.id), 'the reaction saw the event');
    expect(seen).not.toContain(before.id);
    expect(carolStream.events.map((e) => e.event)).toEqual(['ready']);
  });

  it('skips an unreadable event and goes on', async () => {
    const dave = randomUUID();
    const stream = await live(dave);
    await bus.publish(subjectFor(bus.namespace, 'message.sent.v1'), '{"not": "an envelope"}', randomUUID());
    const sent = await publishEvent(bus, 'message.sent.v1', message(dave));
    await stream.waitFor((e) => e.event === 'message' && (e.data as { messageId: string }).messageId === sent.data.messageId, 'the next push');
    expect(lines.some((line) => line.msg === 'unreadable live event skipped' && line.component === 'live-feed')).toBe(true);
  });

  it('reads only the event types declared on a stream, not the whole stream', async () => {
    const frank = randomUUID();
    const stream = await live(frank);
    // A type of the MESSAGES stream nothing here declares: were the feed reading it, this could not
    // be parsed and would be logged as skipped (the test above shows the log for a declared type).
    const undeclared = subjectFor(bus.namespace, 'message.read.v1');
    await bus.publish(undeclared, '{"not": "an envelope"}', randomUUID());
    const sent = await publishEvent(bus, 'message.sent.v1', message(frank));
    await stream.waitFor((e) => e.event === 'message' && (e.data as { messageId: string }).messageId === sent.data.messageId, 'the push after it');
    expect(lines.filter((line) => line.msg === 'unreadable live event skipped' && line.subject === undeclared)).toEqual([]);
  });

  it('follows the core-NATS subjects given, before it resolves', async () => {
    const erin = randomUUID();
    const friend = randomUUID();
    const stream = await live(erin);
    const envelope: EventEnvelope<'presence.changed.v1'> = {
      id: randomUUID(),
      type: 'presence.changed.v1',
      occurredAt: new Date().toISOString(),
      data: { userId: friend, online: true, lastSeenAt: null, audience: [erin] },
    };
    bus.nc.publish(subjectFor(bus.namespace, 'presence.changed.v1'), JSON.stringify(envelope));
    const got = await stream.waitFor((e) => e.event === 'presence', 'the presence change');
    expect(got.data).toEqual({ userId: friend, online: true, lastSeenAt: null });
  });
});

describe('the audience’s reactions, through the hook', () => {
  it('a newer token version ends the streams opened with an older one', async () => {
    const frank = randomUUID();
    const old = await live(frank, 0);
    const current = await live(frank, 1);
    await publishEvent(bus, 'user.updated.v1', testUserSnapshot(frank, { tokenVersion: 1 }));
    // The revocation closes every older stream at once: once the old one ended, the current one's fate is decided.
    expect(await endsWithin(old, 5000)).toBe(true);
    await stillOpen(current, frank);
  });

  it('a block ends both people’s streams, nobody else’s', async () => {
    const [grace, heidi, ivan] = [randomUUID(), randomUUID(), randomUUID()];
    const [graceStream, heidiStream, ivanStream] = await Promise.all([live(grace), live(heidi), live(ivan)]);
    await publishEvent(bus, 'social.user.blocked.v1', { blockerId: grace, blockedId: heidi });
    expect(await endsWithin(graceStream, 5000)).toBe(true);
    expect(await endsWithin(heidiStream, 5000)).toBe(true);
    await stillOpen(ivanStream, ivan);
  });

  it('a deletion ends the person’s streams once the reactions given before it settled; the next events do not wait', async () => {
    const judy = randomUUID();
    const stream = await live(judy);
    await publishEvent(bus, 'user.deleted.v1', { userId: judy });
    await eventually(() => order.includes('held'), 'the first reaction holding');
    // Held: the audience's disconnect has not run, and a later event still reaches the stream.
    const sent = await publishEvent(bus, 'message.sent.v1', message(judy));
    await stream.waitFor((e) => e.event === 'message' && (e.data as { messageId: string }).messageId === sent.data.messageId, 'a push while held');
    await stillOpen(stream, judy);
    release?.();
    expect(await endsWithin(stream, 5000)).toBe(true);
    expect(order).toEqual(['held', 'released']);
    expect(lines.some((line) => line.msg === 'live stream ended by the server' && line.userId === judy && line.reason === 'account deleted')).toBe(true);
  });
});
