import { prepareDatabase, withBus, type AudiencePart, type DatabaseAndBus, type Logger, packageDir } from '@hoptrack/runtime';
import { Redis } from 'ioredis';
import path from 'node:path';
import type { SessionsConfig } from './config';
import { createPrisma, type PrismaClient } from './db';

export const migrationsDir = path.join(packageDir('@hoptrack/sessions'), 'prisma/migrations');
/** The audience tables this service keeps: people (names, privacy, token versions) and the graph (follows, blocks, mutes). */
export const AUDIENCE: readonly AudiencePart[] = ['people', 'graph'];

export interface SessionsConnections extends DatabaseAndBus<PrismaClient> {
  /** Timelines live here. */
  redis: Redis;
}

/** Database (migrated), bus (streams ensured) and Redis: what the API and the fan-out worker both need. */
export async function openConnections(config: SessionsConfig, logger: Logger, name: string, onStatement?: (sql: string) => void): Promise<SessionsConnections> {
  await prepareDatabase(config.DATABASE_URL, migrationsDir, logger, { audience: AUDIENCE });
  const stores = await withBus(createPrisma(config.DATABASE_URL, config.DATABASE_POOL_MAX, onStatement), {
    url: config.NATS_URL,
    name,
    namespace: config.BUS_NAMESPACE,
    streamReplicas: config.NATS_STREAM_REPLICAS,
    logger,
    streams: ['USERS', 'SOCIAL', 'SESSIONS'],
  });
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2 });
  return {
    ...stores,
    redis,
    async close() {
      redis.disconnect();
      await stores.close();
    },
  };
}
