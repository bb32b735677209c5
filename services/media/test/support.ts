import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EventEnvelope, EventType } from '@hoptrack/proto';
import { createTokenService, DEV_SIGNING_KEY, Outbox } from '@hoptrack/runtime';
import { readEvents, startService, testClock, testDatabaseUrl, testNamespace, truncate } from '@hoptrack/testing';
import { freePort } from '@hoptrack/testing/processes';
import { startLocalS3, type LocalS3 } from '@hoptrack/testing/s3';
import type { MediaApp } from '../src/app';
import type { MediaConfig } from '../src/config';
import type { MediaConnections } from '../src/connections';
import { mediaService } from '../src/service';
import { processPhoto, type ProcessOutcome } from '../src/workers/thumbnails/process-photo';

export const databaseUrl = testDatabaseUrl('media');

export type MediaConsumer = keyof NonNullable<typeof mediaService.consumers>;

export interface TestMedia extends MediaApp, MediaConnections {
  config: MediaConfig;
  s3: LocalS3;
  clock: ReturnType<typeof testClock>;
  /** The whole configuration, for a worker process started beside it (same database, namespace, bucket). */
  env: Record<string, string>;
  bearer(userId: string): Promise<{ authorization: string }>;
  /** Runs the worker's processing for a photo in-process (the worker process does the same per job). */
  process(photoId: string): Promise<ProcessOutcome>;
  events<T extends EventType>(...types: T[]): Promise<Array<EventEnvelope<T>>>;
  close(): Promise<void>;
}

/**
 * The media service from its definition (the one production runs) against
 * real Postgres, NATS and an S3 server (s3rver in a temporary folder) over
 * HTTP, on a test clock and a private bus namespace, with its outbox relay
 * and the consumers named running (the audience's by default). Its tables
 * start empty.
 */
export async function startTestMedia(
  options: {
    consumers?: 'all' | readonly MediaConsumer[];
    /** The endpoint the service is to use in front of the S3 server (a faulty front: s3-front.ts); the server's own by default. */
    s3Endpoint?: (server: string) => string;
    env?: Record<string, string>;
  } = {},
): Promise<TestMedia> {
  const s3 = await startLocalS3({ port: await freePort(), directory: await mkdtemp(path.join(tmpdir(), 'media-test-')) });
  const namespace = testNamespace('media');
  const env = {
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    S3_ENDPOINT: options.s3Endpoint?.(s3.endpoint) ?? s3.endpoint,
    S3_BUCKET: 'media-test',
    BUS_NAMESPACE: namespace,
    OUTBOX_POLL_MS: '100',
    READ_MODEL_CONSUMER: `rm-${namespace}`,
    THUMBNAIL_CONSUMER: `thumbs-${namespace}`,
    ...options.env,
  };
  const clock = testClock();
  const media = await startService(mediaService, {
    env,
    clock: clock.now,
    consumers: options.consumers ?? ['audience'],
    prepare: () => truncate(databaseUrl, ['photos', 'photo_albums', 'users', 'follows', 'blocks', 'mutes', 'outbox', 'processed_events', 'export_assemblies']),
  }).catch(async (err: unknown) => {
    await s3.close();
    throw err;
  });
  const tokens = await createTokenService({ keys: [DEV_SIGNING_KEY], expiresIn: '1h' });
  const outbox = new Outbox(namespace);
  return {
    ...media.parts,
    ...media.connections,
    config: media.config,
    s3,
    clock,
    env,
    async bearer(userId) {
      return { authorization: `Bearer ${await tokens.sign({ userId, tokenVersion: 0 })}` };
    },
    process(photoId) {
      return processPhoto({ prisma: media.connections.prisma, store: media.connections.store, outbox, onEventsCommitted: media.poke, logger: media.logger }, photoId);
    },
    async events(...types) {
      await media.parts.relay.drain();
      return readEvents(media.connections.bus, 'MEDIA', ...types);
    },
    async close() {
      await media.close();
      await s3.close();
    },
  };
}
