import { randomUUID } from 'node:crypto';
import type { EventData, EventEnvelope, EventType } from '@hoptrack/proto';
import { createTokenService, DEV_SIGNING_KEY, type Bus, type OutboxRelay } from '@hoptrack/runtime';
import { publishEvent, readEvents, startService, testDatabaseUrl, truncate } from '@hoptrack/testing';
import type { LightMyRequestResponse } from 'fastify';
import type { PrismaClient } from '../src/db';
import { placesService } from '../src/service';

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
 * The places service from its definition (the one production runs) on its
 * test database and a private bus namespace, with the real catalogue loaded
 * (once; the seed is idempotent), the outbox relay and the consumers named
 * running (the audience's by default). Reviews, votes, read models and the
 * outbox start empty.
 */
export async function startTestPlaces(
  overrides: Record<string, string> = {},
  options: { consumers?: ReadonlyArray<keyof NonNullable<typeof placesService.consumers>> } = {},
): Promise<TestPlaces> {
  const places = await startService(placesService, {
    env: { DATABASE_URL: databaseUrl, ...overrides },
    consumers: options.consumers ?? ['audience'],
    async prepare({ prisma }) {
      await truncate(databaseUrl, ['review_helpfulness', 'bar_reviews', 'bar_food', 'food_items', 'users', 'blocks', 'processed_events', 'outbox']);
      await prisma.$executeRawUnsafe('UPDATE bars SET rating = NULL WHERE rating IS NOT NULL');
    },
  });
  const { app, relay } = places.parts;
  const { prisma, bus } = places.connections;
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
    prisma,
    bus,
    relay,
    as,
    anonymous: (url) => app.inject({ method: 'GET', url }),
    async publish(type, data) {
      await publishEvent(bus, type, data);
    },
    published(...types) {
      return readEvents(bus, 'PLACES', ...types);
    },
    close: () => places.close(),
  };
}
