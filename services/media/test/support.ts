import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EventEnvelope, EventType } from '@hoptrack/proto';
import { createMetrics, createTokenService, DEV_SIGNING_KEY, deleteStreams, Outbox, type RunningConsumer } from '@hoptrack/runtime';
import { memoryLogger, readEvents, testClock, testDatabaseUrl, testNamespace, truncate } from '@hoptrack/testing';
import { freePort } from '@hoptrack/testing/processes';
import { startLocalS3, type LocalS3 } from '@hoptrack/testing/s3';
import { buildMediaApp, type MediaApp } from '../src/app';
import { mediaConfigSchema, type MediaConfig } from '../src/config';
import { openConnections, type MediaConnections } from '../src/connections';
import { startReadModelConsumers } from '../src/consumers/read-model.consumer';
import { processPhoto, type ProcessOutcome } from '../src/workers/thumbnails/process-photo';

export const databaseUrl = testDatabaseUrl('media');

export interface TestMedia extends MediaApp, MediaConnections {
  config: MediaConfig;
  s3: LocalS3;
  clock: ReturnType<typeof testClock>;
  env: Record<string, string>;
  bearer(userId: string): Promise<{ authorization: string }>;
  /** Runs the worker's processing for a photo in-process (the worker process does the same per job). */
  process(photoId: string): Promise<ProcessOutcome>;
  events<T extends EventType>(...types: T[]): Promise<Array<EventEnvelope<T>>>;
  close(): Promise<void>;
}

/** The media app against real Postgres, NATS and an S3 server (s3rver in a temporary folder) over HTTP. */
export async function startTestMedia(): Promise<TestMedia> {
  const s3 = await startLocalS3({ port: await freePort(), directory: await mkdtemp(path.join(tmpdir(), 'media-test-')) });
  const namespace = testNamespace('media');
  const env = {
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: 'media-test',
    BUS_NAMESPACE: namespace,
    OUTBOX_POLL_MS: '100',
    READ_MODEL_CONSUMER: `rm-${namespace}`,
    THUMBNAIL_CONSUMER: `thumbs-${namespace}`,
  };
  const config = mediaConfigSchema.parse(env);
  const { logger } = memoryLogger('media');
  const connections = await openConnections(config, logger, 'media-test');
  await truncate(databaseUrl, ['photos', 'photo_albums', 'users', 'follows', 'blocks', 'mutes', 'outbox', 'processed_events', 'export_assemblies']);
  const clock = testClock();
  const built = await buildMediaApp({ config, logger, metrics: createMetrics('media'), clock: clock.now, ...connections });
  await built.app.ready();
  const consumers: RunningConsumer[] = await startReadModelConsumers({ bus: connections.bus, prisma: connections.prisma, durable: config.READ_MODEL_CONSUMER, logger });
  const tokens = await createTokenService({ keys: [DEV_SIGNING_KEY], expiresIn: '1h'  });
  const outbox = new Outbox(namespace);
  return {
    ...built,
    ...connections,
    config,
    s3,
    clock,
    env,
    async bearer(userId) {
      return { authorization: `Bearer ${await tokens.sign({ userId, tokenVersion: 0 })}` };
    },
    process(photoId) {
      return processPhoto({ ...connections, outbox, onEventsCommitted: () => built.relay.poke(), logger }, photoId);
    },
    async events(...types) {
      await built.relay.drain();
      return readEvents(connections.bus, 'MEDIA', ...types);
    },
    async close() {
      await Promise.all(consumers.map((c) => c.stop()));
      await built.relay.stop();
      await built.app.close();
      await deleteStreams(connections.bus);
      await connections.close();
      await s3.close();
    },
  };
}
