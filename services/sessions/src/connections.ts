import { prepareDatabase, withBus, type AudiencePart, type DatabaseAndBus, type Logger, packageDir, audienceMigrationDirs } from '@hoptrack/runtime';
import { Redis } from 'ioredis';
import path from 'node:path';
import type { SessionsConfig } from './config';
import { createDatabase, type PreparedSql, type PrismaClient } from './db';

export const migrationsDir = path.join(packageDir('@hoptrack/sessions'), 'prisma/migrations');
/** The audience tables this service keeps: people (names, privacy, token versions) and the graph (follows, blocks, mutes). */
export const AUDIENCE: readonly AudiencePart[] = ['people', 'graph'];

export interface SessionsConnections extends DatabaseAndBus<PrismaClient> {
  /** The hot path's named statements, over Prisma's pool. */
  prepared: PreparedSql;
  /** Timelines, cards and people live here. */
  redis: Redis;
}

/** Database (migrated), bus (streams ensured) and Redis: what the API and the fan-out worker both need. */
export async function openConnections(config: SessionsConfig, logger: Logger, name: string, onStatement?: (sql: string) => void): Promise<SessionsConnections> {
  await prepareDatabase(config.DATABASE_URL, migrationsDir, logger, { include: audienceMigrationDirs(AUDIENCE) });
  const database = createDatabase(config.DATABASE_URL, {
    poolMax: config.DATABASE_POOL_MAX,
    onStatement,
    onPoolError: (err) => logger.warn({ err }, 'idle database connection lost; the pool reconnects'),
  });
  const stores = await withBus(database.prisma, {
    url: config.NATS_URL,
    name,
    namespace: config.BUS_NAMESPACE,
    streamReplicas: config.NATS_STREAM_REPLICAS,
    logger,
    streams: ['USERS', 'SOCIAL', 'SESSIONS'],
  });
  // Auto-pipelining: the commands of concurrent requests (and a page's own, issued together) share one write.
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
  return {
    ...stores,
    prepared: database.prepared,
    redis,
    async close() {
      redis.disconnect();
      await stores.close();
      await database.close();
    },
  };
}
