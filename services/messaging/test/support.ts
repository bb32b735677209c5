import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { streamNameFor, type EventData, type EventEnvelope, type EventType, type UserSnapshot } from '@hoptrack/proto';
import { assembleService, audienceDurables, createMetrics, createTokenService, DEV_SIGNING_KEY, personById, type ServiceApp } from '@hoptrack/runtime';
import { eventually, memoryLogger, publishEvent, readEvents, startService, testDatabaseUrl, testNamespace, testUserSnapshot, truncate } from '@hoptrack/testing';
import type { LightMyRequestResponse } from 'fastify';
import type { MessagingApp } from '../src/app';
import type { MessagingConfig } from '../src/config';
import type { MessagingConnections } from '../src/connections';
import { presencePrefix } from '../src/presence/store';
import { messagingService } from '../src/service';

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

/** One messaging process's parts (HTTP app, outbox relay, live hub, presence) with its workers (live feed, presence) running, listening on a real port. */
export interface Instance extends MessagingApp {
  url: string;
  stop(): Promise<void>;
}

type ConsumerName = keyof NonNullable<typeof messagingService.consumers>;

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

/** Listens on a free local port: live streams are real HTTP connections, and the gateway tests proxy to it. */
async function listen(app: ServiceApp): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/**
 * The messaging service from its definition (the one production runs)
 * against real Postgres, Redis and NATS: the primary instance (API, outbox
 * relay, live feed, presence, and the consumers named: the read models by
 * default) and, on demand, more instances sharing its database and bus
 * namespace.
 */
export async function startTestMessaging(overrides: Record<string, string> = {}, options: { consumers?: readonly ConsumerName[] } = {}): Promise<TestMessaging> {
  const namespace = testNamespace('messaging');
  const messaging = await startService(messagingService, {
    env: { DATABASE_URL: databaseUrl, BUS_NAMESPACE: namespace, READ_MODEL_CONSUMER: `rm-${namespace}`, ...overrides },
    consumers: options.consumers ?? ['audience'],
    async connect(context) {
      const own = await messagingService.connect(context);
      return {
        ...own,
        // Closed last, once every instance's presence has stopped: the run's presence keys go too (last-seen times would otherwise stay for months).
        async close() {
          const presenceKeys = await own.redis.keys(`${presencePrefix(namespace)}:*`);
          if (presenceKeys.length > 0) await own.redis.del(...presenceKeys);
          await own.close();
        },
      };
    },
    prepare: () => truncate(databaseUrl, ['messages', 'conversations', 'users', 'blocks', 'outbox', 'processed_events']),
  });
  const { config, connections } = messaging;

  const replicas: Instance[] = [];
  // The primary's stop is the whole service's: its connections and streams are everyone's.
  const primary: Instance = { ...messaging.parts, url: await listen(messaging.parts.app), stop: () => close() };
  /** Another replica as production runs one: the same definition, connections of its own on the same database and namespace, its read models left to the primary's. */
  const startInstance = async (): Promise<Instance> => {
    const replica = await assembleService(messagingService, { config, logger: memoryLogger('messaging').logger, metrics: createMetrics('messaging'), consumers: 'none' });
    const { parts } = replica.context;
    const url = await listen(parts.app);
    await replica.start();
    const instance: Instance = {
      ...parts,
      url,
      async stop() {
        if (!replicas.includes(instance)) return;
        replicas.splice(replicas.indexOf(instance), 1);
        await parts.app.close();
        // Its workers, relay and connections; not the namespace's streams, which the others still use.
        for (const closer of replica.closers) await closer.close();
      },
    };
    replicas.push(instance);
    return instance;
  };
  const instances = () => [primary, ...replicas];
  const close = async () => {
    for (const replica of replicas.slice().reverse()) await replica.stop();
    await messaging.close();
  };
  const tokens = await createTokenService({ keys: [DEV_SIGNING_KEY], expiresIn: '1h' });

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
    await Promise.all(instances().map((i) => i.relay.drain()));
    await eventually(readModelsDrained, 'read models caught up');
  };
  const versions = new Map<string, UserOptions & { tokenVersion?: number }>();

  return {
    ...connections,
    config,
    primary,
    startInstance,
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
      await Promise.all(instances().map((i) => i.relay.drain()));
      // drain() skips rows a background relay run has locked: wait until that run has published them too.
      await eventually(async () => (await connections.prisma.outboxEvent.count({ where: { publishedAt: null } })) === 0, 'outbox relayed');
      return readEvents(connections.bus, 'MESSAGES', ...types);
    },
    close,
  };
}
