import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createMetrics, createTokenService } from '@hoptrack/runtime';
import { memoryLogger, testClock } from '@hoptrack/runtime/testing';
import { freePort } from '../../../infra/testing/processes';
import { startLocalS3, type LocalS3 } from '../../../infra/testing/s3';
import { buildMediaApp, createObjectStore, type MediaApp } from '../src/app';
import { mediaConfigSchema, type MediaConfig } from '../src/config';
import type { ObjectStore } from '../src/storage/object-store';

const JWT_SECRET = 'test-secret-test-secret-test-secret-123';

export interface TestMedia extends MediaApp {
  config: MediaConfig;
  store: ObjectStore;
  s3: LocalS3;
  clock: ReturnType<typeof testClock>;
  bearer(userId: string): Promise<{ authorization: string }>;
  close(): Promise<void>;
}

/** The media app against a real S3 server (s3rver in a temporary folder), reached over HTTP. */
export async function startTestMedia(): Promise<TestMedia> {
  const s3 = await startLocalS3({ port: await freePort(), directory: await mkdtemp(path.join(tmpdir(), 'media-test-')) });
  const config = mediaConfigSchema.parse({ NODE_ENV: 'test', JWT_SECRET, S3_ENDPOINT: s3.endpoint, S3_BUCKET: 'media-test' });
  const store = createObjectStore(config);
  await store.ensureBucket(config.S3_REGION);
  const clock = testClock();
  const built = await buildMediaApp({ config, logger: memoryLogger('media').logger, metrics: createMetrics('media'), store, clock: clock.now });
  await built.app.ready();
  const tokens = createTokenService({ secret: JWT_SECRET, expiresIn: '1h' });
  return {
    ...built,
    config,
    store,
    s3,
    clock,
    async bearer(userId) {
      return { authorization: `Bearer ${await tokens.sign({ userId, tokenVersion: 0 })}` };
    },
    async close() {
      await built.app.close();
      await s3.close();
    },
  };
}
