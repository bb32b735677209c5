import { randomUUID } from 'node:crypto';
import type { EventData, EventEnvelope, EventType } from '@hoptrack/proto';
import { createMetrics, createTokenService, DEV_SIGNING_KEY, deleteStreams, type Bus, type OutboxRelay, type RunningConsumer } from '@hoptrack/runtime';
import { memoryLogger, publishEvent, readEvents, testDatabaseUrl, testNamespace, truncate } from '@hoptrack/testing';
import type { LightMyRequestResponse } from 'fastify';
import { buildPlacesApp } from '../src/app';
import { placesConfigSchema } from '../src/config';
import { openConnections } from '../src/connections';
import { startReadModelConsumers } from '../src/consumers/read-model.consumer';
import type { PrismaClient } from '../src/db';

export const databaseUrl = testDatabaseUrl('places');

export interface Client {
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, body?: object): Promise<LightMyRequestResponse>;
  delete(url: string): Promise<LightMyRequestResponse>;
}

export interface TestPlaces extends Client {
  prisma: PrismaClient;
  bus: Bus;
  relay: OutboxRelay;
  /** The API as a given user (any uuid: places trusts the signed token). */
  as(userId: string): Promise<Client>;
  anonymous(url: string): Promise<LightMyRequestResponse>;
  /** Publishes an event as auth or social-graph would; the read-model consumers pick it up. */
  publish<T extends EventType>(type: T, data: EventData<T>): Promise<void>;
  /** What has reached the PLACES stream so far (of the given types, or all); the outbox is not drained first. */
  published<T extends EventType>(...types: T[]): Promise<Array<EventEnvelope<T>>>;
  close(): Promise<void>;
}

/**
 * The places app on its test database and a private bus namespace, with the
 * real catalogue loaded (once; the seed is idempotent), the read-model
 * consumers and the outbox relay running. Reviews, votes, read models and
 * the outbox start empty.
 */
export async function startTestPlaces(overrides: Record<string, string> = {}): Promise<TestPlaces> {
  const namespace = testNamespace('places');
  const config = placesConfigSchema.parse({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    BUS_NAMESPACE: namespace,
    READ_MODEL_CONSUMER: `rm-${namespace}`,
    OUTBOX_POLL_MS: '100',
    ...overrides,
  });
  const { logger } = memoryLogger('places');
  const connections = await openConnections(config, logger);
  await truncate(databaseUrl, ['review_helpfulness', 'bar_reviews', 'bar_food', 'food_items', 'users', 'blocks', 'processed_events', 'outbox']);
  await connections.prisma.$executeRawUnsafe('UPDATE bars SET rating = NULL WHERE rating IS NOT NULL');
  const { app, relay } = buildPlacesApp({ config, logger, metrics: createMetrics('places'), ...connections });
  await app.ready();
  relay.start();
  const consumers: RunningConsumer[] = await startReadModelConsumers({ ...connections, durable: config.READ_MODEL_CONSUMER, logger });
  const tokens = await createTokenService({ keys: [DEV_SIGNING_KEY] });
  const clientFor = (authorization: string): Client => ({
    get: (url) => app.inject({ method: 'GET', url, headers: { authorization } }),
    post: (url, body) => app.inject({ method: 'POST', url, headers: { authorization }, ...(body ? { payload: body } : {}) }),
    delete: (url) => app.inject({ method: 'DELETE', url, headers: { authorization } }),
  });
  const as = async (userId: string) => clientFor(`Bearer ${await tokens.sign({ userId, tokenVersion: 0 })}`);
  const defaultClient = await as(randomUUID());
  return {
    ...defaultClient,
    prisma: connections.prisma,
    bus: connections.bus,
    relay,
    as,
    anonymous: (url) => app.inject({ method: 'GET', url }),
    async publish(type, data) {
      await publishEvent(connections.bus, type, data);
    },
    published(...types) {
      return readEvents(connections.bus, 'PLACES', ...types);
    },
    async close() {
      await Promise.all(consumers.map((c) => c.stop()));
      await relay.stop();
      await app.close();
      await deleteStreams(connections.bus);
      await connections.close();
    },
  };
}
