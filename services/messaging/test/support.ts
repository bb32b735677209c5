import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { streamNameFor, type EventData, type EventEnvelope, type EventType, type UserSnapshot } from '@hoptrack/proto';
import { audienceDurables, createMetrics, createTokenService, DEV_SIGNING_KEY, deleteStreams, personById, type RunningConsumer } from '@hoptrack/runtime';
import { eventually, memoryLogger, publishEvent, readEvents, testDatabaseUrl, testNamespace, testUserSnapshot, truncate } from '@hoptrack/testing';
import type { LightMyRequestResponse } from 'fastify';
import { buildMessagingApp, type MessagingApp } from '../src/app';
import { messagingConfigSchema, type MessagingConfig } from '../src/config';
import { openConnections, type MessagingConnections } from '../src/connections';
import { startReadModelConsumers } from '../src/consumers/read-model.consumer';
import { startLiveFeed, type RunningLiveFeed } from '../src/live/feed';

export const databaseUrl = testDatabaseUrl('messaging');

export interface Client {
  id: string;
  /** The bearer token, for raw HTTP calls (live streams). */
  token: string;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, body?: unknown): Promise<LightMyRequestResponse>;
  put(url: string, body?: unknown): Promise<LightMyRequestResponse>;
  patch(url: string, body?: unknown): Promise<LightMyRequestResponse>;
  delete(url: string, body?: unknown): Promise<LightMyRequestResponse>;
}

/** One messaging process's parts: its HTTP app, outbox relay, live hub and live feed, listening on a real port. */
export interface Instance extends MessagingApp {
  url: string;
  liveFeed: RunningLiveFeed;
  stop(): Promise<void>;
}

export interface UserOptions {
  displayName?: string;
  allowDirectMessages?: boolean;
  showOnlineStatus?: boolean;
}

export interface TestMessaging extends MessagingConnections {
  config: MessagingConfig;
  /** The instance `Client` calls go to (in-process, by `inject`); it also listens on `primary.url`. */
  primary: Instance;
  /** Another messaging instance on the same database and bus, as a second replica would run. */
  startInstance(): Promise<Instance>;
  /** A user the read model knows (allowing direct messages unless told), with a client. */
  user(options?: UserOptions): Promise<Client>;
  as(userId: string, tokenVersion?: number): Promise<Client>;
  /** Re-publishes the user's snapshot with changes (e.g. direct messages off) and waits for the read model. */
  updateUser(client: Client, changes: UserOptions & { tokenVersion?: number }): Promise<void>;
  /** An accepted friendship between the two, applied to the read model. */
  befriend(a: Client, b: Client): Promise<void>;
  block(blocker: Client, blocked: Client): Promise<void>;
  unblock(blocker: Client, blocked: Client): Promise<void>;
  publish<T extends EventType>(type: T, data: EventData<T>): Promise<void>;
  /** Waits until the outbox is relayed and the read models have applied every event. */
  settle(): Promise<void>;
  /** The events messaging published (MESSAGES stream), after relaying what is pending. */
  messagingEvents<T extends EventType>(...types: T[]): Promise<Array<EventEnvelope<T>>>;
  close(): Promise<void>;
}

export function snapshot(id: string, options: UserOptions & { tokenVersion?: number; updatedAt?: Date } = {}): UserSnapshot {
  return testUserSnapshot(id, options);
}

/**
 * The messaging service in-process against real Postgres and NATS: the
 * primary instance (API, outbox relay, live feed, read models) and, on
 * demand, more instances sharing its database and bus namespace.
 */
export async function startTestMessaging(overrides: Record<string, string> = {}): Promise<TestMessaging> {
  const namespace = testNamespace('messaging');
  const env = {
    NODE_ENV: 'test',
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    BUS_NAMESPACE: namespace,
    DATABASE_URL: databaseUrl,
    OUTBOX_POLL_MS: '100',
    READ_MODEL_CONSUMER: `rm-${namespace}`,
    ...overrides,
  };
  const config = messagingConfigSchema.parse(env);
  const { logger } = memoryLogger('messaging');
  const connections = await openConnections(config, logger, 'messaging-test');
  await truncate(databaseUrl, ['messages', 'conversations', 'users', 'blocks', 'outbox', 'processed_events']);

  const instances: Instance[] = [];
  const startInstance = async (shared?: MessagingConnections): Promise<Instance> => {
    // A second instance gets connections of its own, as a separate process would.
    const own = shared ?? (await openConnections(config, logger, `messaging-test-${instances.length}`));
    const built = buildMessagingApp({ config, logger, metrics: createMetrics('messaging'), ...own });
    const liveFeed = await startLiveFeed({ bus: own.bus, hub: built.hub, presence: built.presence, logger });
    await built.app.listen({ port: 0, host: '127.0.0.1' });
    built.relay.start();
    built.presence.start();
    const instance: Instance = {
      ...built,
      liveFeed,
      url: `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`,
      async stop() {
        await built.app.close();
        built.presence.stop();
        await liveFeed.stop();
        await built.relay.stop();
        if (!shared) await own.close();
      },
    };
    instances.push(instance);
    return instance;
  };
  const primary = await startInstance(connections);
  const readModels: RunningConsumer[] = await startReadModelConsumers({ bus: connections.bus, prisma: connections.prisma, durable: config.READ_MODEL_CONSUMER, logger });
  const tokens = await createTokenService({ keys: [DEV_SIGNING_KEY], expiresIn: '1h'  });

  const as = async (id: string, tokenVersion = 0): Promise<Client> => {
    const token = await tokens.sign({ userId: id, tokenVersion });
    const authorization = `Bearer ${token}`;
    const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE') => (url: string, body?: unknown) =>
      primary.app.inject({ method, url, headers: { authorization }, ...(body !== undefined ? { payload: body as object } : {}) });
    return { id, token, get: call('GET'), post: call('POST'), put: call('PUT'), patch: call('PATCH'), delete: call('DELETE') };
  };

  const readModelsDrained = async () => {
    for (const { stream, durable } of Object.values(audienceDurables(config.READ_MODEL_CONSUMER))) {
      const info = await connections.bus.jsm.consumers.info(streamNameFor(namespace, stream), durable);
      if (info.num_pending > 0 || info.num_ack_pending > 0) return false;
    }
    return true;
  };
  const settle = async () => {
    await Promise.all(instances.map((i) => i.relay.drain()));
    await eventually(readModelsDrained, 'read models caught up');
  };
  const versions = new Map<string, UserOptions & { tokenVersion?: number }>();

  return {
    ...connections,
    config,
    primary,
    startInstance: () => startInstance(),
    as,
    async user(options = {}) {
      const id = randomUUID();
      versions.set(id, options);
      await publishEvent(connections.bus, 'user.registered.v1', snapshot(id, options));
      await eventually(async () => (await personById(connections.prisma, id)) !== null, 'user in the read model');
      return as(id);
    },
    async updateUser(client, changes) {
      const next = { ...versions.get(client.id), ...changes };
      versions.set(client.id, next);
      // A later updatedAt than anything before: the read model keeps the newest snapshot.
      await publishEvent(connections.bus, 'user.updated.v1', snapshot(client.id, { ...next, updatedAt: new Date(Date.now() + 1000) }));
      await settle();
    },
    async befriend(a, b) {
      await publishEvent(connections.bus, 'social.friendship.accepted.v1', { friendshipId: randomUUID(), requesterId: a.id, recipientId: b.id });
      await settle();
    },
    async block(blocker, blocked) {
      await publishEvent(connections.bus, 'social.user.blocked.v1', { blockerId: blocker.id, blockedId: blocked.id });
      await settle();
    },
    async unblock(blocker, blocked) {
      await publishEvent(connections.bus, 'social.user.unblocked.v1', { blockerId: blocker.id, blockedId: blocked.id });
      await settle();
    },
    async publish(type, data) {
      await publishEvent(connections.bus, type, data);
    },
    settle,
    async messagingEvents(...types) {
      await Promise.all(instances.map((i) => i.relay.drain()));
      // drain() skips rows a background relay run has locked: wait until that run has published them too.
      await eventually(async () => (await connections.prisma.outboxEvent.count({ where: { publishedAt: null } })) === 0, 'outbox relayed');
      return readEvents(connections.bus, 'MESSAGES', ...types);
    },
    async close() {
      await Promise.all(readModels.map((c) => c.stop()));
      for (const instance of instances.splice(0).reverse()) await instance.stop();
      // Presence keys of this run (last-seen times would otherwise stay for months).
      const presenceKeys = await connections.redis.keys(`${namespace}:messaging:presence:*`);
      if (presenceKeys.length > 0) await connections.redis.del(...presenceKeys);
      await deleteStreams(connections.bus);
      await connections.close();
    },
  };
}
