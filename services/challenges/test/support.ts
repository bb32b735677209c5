import { randomUUID } from 'node:crypto';
import { subjectFor, type EventData, type EventEnvelope, type EventType, type StreamName, type UserSnapshot } from '@hoptrack/proto';
import { audienceDurables, createMetrics, deleteStreams, personById, type RunningConsumer } from '@hoptrack/runtime';
import { consumersSettled, injectClients, type InjectClient, eventually, memoryLogger, readEvents, testClock, testDatabaseUrl, testNamespace, testUserSnapshot, truncate, type TestClock } from '@hoptrack/testing';
import { buildChallengesApp, type ChallengesApp } from '../src/app';
import { challengesConfigSchema, type ChallengesConfig } from '../src/config';
import { openConnections, type ChallengesConnections } from '../src/connections';
import { PROGRESS_STREAMS, startProgressConsumers } from '../src/consumers/progress.consumer';
import { startReadModelConsumers } from '../src/consumers/read-model.consumer';

export const databaseUrl = testDatabaseUrl('challenges');

export type Client = InjectClient;

export interface TestChallenges extends ChallengesConnections, ChallengesApp {
  config: ChallengesConfig;
  /** The service's time: a fixed instant the tests move by hand. */
  clock: TestClock;
  /** A person the read model knows (public profile unless told), with a client. */
  user(overrides?: Partial<Omit<UserSnapshot, 'id' | 'updatedAt'>>): Promise<Client>;
  as(userId: string): Promise<Client>;
  /** Publishes an event as its owning service would (at the service's time unless told), and waits until every consumer applied it. */
  publish<T extends EventType>(type: T, data: EventData<T>, occurredAt?: Date): Promise<EventEnvelope<T>>;
  /** Publishes an exact envelope again (a redelivery or a replay). */
  republish(envelope: EventEnvelope): Promise<void>;
  settle(): Promise<void>;
  /** The events of a type the service published so far, after relaying what is pending. */
  published<T extends EventType>(type: T): Promise<Array<EventEnvelope<T>>>;
  close(): Promise<void>;
}

/** The challenges service in-process against real Postgres and NATS: API, outbox relay, read models and progress consumers. */
export async function startTestChallenges(options: { now?: Date; overrides?: Record<string, string> } = {}): Promise<TestChallenges> {
  const namespace = testNamespace('challenges');
  const config = challengesConfigSchema.parse({
    NODE_ENV: 'test',
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    BUS_NAMESPACE: namespace,
    DATABASE_URL: databaseUrl,
    OUTBOX_POLL_MS: '100',
    READ_MODEL_CONSUMER: `rm-${namespace}`,
    PROGRESS_CONSUMER: `progress-${namespace}`,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    CHALLENGES_PER_DAY: '6',
    ...options.overrides,
  });
  const { logger, lines } = memoryLogger('challenges');
  const connections = await openConnections(config, logger);
  await truncate(databaseUrl, [
    'challenge_invitations',
    'user_challenges',
    'daily_challenges',
    'session_facts',
    'review_facts',
    'photo_facts',
    'users',
    'follows',
    'blocks',
    'mutes',
    'outbox',
    'processed_events',
  ]);
  const clock = testClock(options.now ?? new Date('2026-06-15T12:00:00Z'));
  const built = buildChallengesApp({ config, logger, metrics: createMetrics('challenges'), clock: clock.now, ...connections });
  await built.app.ready();
  built.relay.start();
  const consumers: RunningConsumer[] = [
    ...(await startReadModelConsumers({ bus: connections.bus, prisma: connections.prisma, durable: config.READ_MODEL_CONSUMER, logger })),
    ...(await startProgressConsumers({
      bus: connections.bus,
      sql: connections.sql,
      progress: built.progress,
      durable: config.PROGRESS_CONSUMER,
      logger,
      clock: clock.now,
      onEventsCommitted: () => built.relay.poke(),
    })),
  ];
  const as = await injectClients(built.app);
  const durables: Array<{ stream: StreamName; durable: string }> = [
    ...Object.values(audienceDurables(config.READ_MODEL_CONSUMER)),
    ...PROGRESS_STREAMS.map((stream) => ({ stream, durable: `${config.PROGRESS_CONSUMER}-${stream.toLowerCase()}` })),
  ];
  const settle = () =>
    consumersSettled(connections.bus, durables).catch((err: unknown) => {
      // What a stuck consumer said is the first thing to read when this fails.
      const errors = lines.filter((l) => Number(l.level) >= 40).slice(-3);
      throw new Error(`${String(err)}; last warnings: ${JSON.stringify(errors)}`);
    });
  const send = async (envelope: EventEnvelope, msgId: string) => {
    await connections.bus.publish(subjectFor(namespace, envelope.type), JSON.stringify(envelope), msgId);
    await settle();
  };
  let snapshotAt = Date.now();

  return {
    ...connections,
    ...built,
    config,
    clock,
    as,
    async user(overrides = {}) {
      const id = randomUUID();
      snapshotAt = Math.max(snapshotAt + 1, Date.now());
      await send({ id: randomUUID(), type: 'user.registered.v1', occurredAt: new Date().toISOString(), data: testUserSnapshot(id, { ...overrides, updatedAt: new Date(snapshotAt) }) }, randomUUID());
      await eventually(async () => (await personById(connections.prisma, id)) !== null, 'user in the read model');
      return as(id);
    },
    async publish(type, data, occurredAt = clock.now()) {
      const envelope = { id: randomUUID(), type, occurredAt: occurredAt.toISOString(), data };
      await send(envelope, envelope.id);
      return envelope;
    },
    // A new message id for JetStream (its own de-duplication would drop it), the same event id for our inbox.
    republish: (envelope) => send(envelope, randomUUID()),
    settle,
    async published(type) {
      await built.relay.drain();
      await eventually(async () => (await connections.prisma.outboxEvent.count({ where: { publishedAt: null } })) === 0, 'outbox relayed');
      return readEvents(connections.bus, 'CHALLENGES', type);
    },
    async close() {
      await Promise.all(consumers.map((c) => c.stop()));
      await built.app.close();
      await built.relay.stop();
      await deleteStreams(connections.bus);
      await connections.close();
    },
  };
}

/** Two people made friends, as social-graph announces it. */
export async function befriend(service: TestChallenges, a: Client, b: Client): Promise<void> {
  const pair = { friendshipId: randomUUID(), requesterId: a.id, recipientId: b.id };
  await service.publish('social.friendship.requested.v1', pair);
  await service.publish('social.friendship.accepted.v1', pair);
}

let sessionClock = 0;
/** A session's facts as the sessions service publishes them, logged at `at`. */
export function sessionFacts(userId: string, at: Date, facts: Partial<EventData<'session.created.v1'>> = {}): EventData<'session.created.v1'> {
  const updatedAt = new Date(at.getTime() + ++sessionClock).toISOString();
  return { sessionId: randomUUID(), userId, beerCount: 1, duration: 60, title: 'A session', beerTypes: [], location: null, hasMusic: false, createdAt: at.toISOString(), updatedAt, ...facts };
}
