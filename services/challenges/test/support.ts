import { randomUUID } from 'node:crypto';
import { subjectFor, type EventData, type EventEnvelope, type EventType, type StreamName, type UserSnapshot } from '@hoptrack/proto';
import { audienceDurables, personById } from '@hoptrack/runtime';
import { consumersSettled, injectClients, type InjectClient, eventually, readEvents, startService, testClock, testDatabaseUrl, testUserSnapshot, truncate, type TestClock } from '@hoptrack/testing';
import type { ChallengesApp } from '../src/app';
import type { ChallengesConfig } from '../src/config';
import type { ChallengesConnections } from '../src/connections';
import { PROGRESS_STREAMS } from '../src/consumers/progress.consumer';
import { challengesService } from '../src/service';

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

export interface TestChallengesOptions {
  now?: Date;
  overrides?: Record<string, string>;
  /** The definition's consumers to run: the read models' and progress' unless told (erasure, export on request). */
  consumers?: ReadonlyArray<keyof NonNullable<typeof challengesService.consumers>>;
}

/**
 * The challenges service from its definition (the one production runs)
 * against real Postgres and NATS, on a private bus namespace, at a fixed time:
 * API, outbox relay, and the consumers named. The generator's BullMQ worker
 * is left out: its job would publish the real today beside the test clock's
 * (the generator tests run one of their own).
 */
export async function startTestChallenges(options: TestChallengesOptions = {}): Promise<TestChallenges> {
  const clock = testClock(options.now ?? new Date('2026-06-15T12:00:00Z'));
  const service = await startService(challengesService, {
    env: { DATABASE_URL: databaseUrl, CHALLENGES_PER_DAY: '6', ...options.overrides },
    clock: clock.now,
    consumers: options.consumers ?? ['audience', 'progress'],
    workers: false,
    async prepare() {
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
    },
  });
  const { config, connections, parts, namespace } = service;
  const as = await injectClients(parts.app);
  const durables: Array<{ stream: StreamName; durable: string }> = [
    ...Object.values(audienceDurables(config.READ_MODEL_CONSUMER)),
    ...PROGRESS_STREAMS.map((stream) => ({ stream, durable: `${config.PROGRESS_CONSUMER}-${stream.toLowerCase()}` })),
  ];
  const settle = () =>
    consumersSettled(connections.bus, durables).catch((err: unknown) => {
      // What a stuck consumer said is the first thing to read when this fails.
      const errors = service.logs.filter((l) => Number(l.level) >= 40).slice(-3);
      throw new Error(`${String(err)}; last warnings: ${JSON.stringify(errors)}`);
    });
  const send = async (envelope: EventEnvelope, msgId: string) => {
    await connections.bus.publish(subjectFor(namespace, envelope.type), JSON.stringify(envelope), msgId);
    await settle();
  };
  let snapshotAt = Date.now();

  return {
    ...connections,
    ...parts,
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
      await parts.relay.drain();
      await eventually(async () => (await connections.prisma.outboxEvent.count({ where: { publishedAt: null } })) === 0, 'outbox relayed');
      return readEvents(connections.bus, 'CHALLENGES', type);
    },
    close: () => service.close(),
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
