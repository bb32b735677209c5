import { LIVE_PUSHES, type StreamName, processStreams } from '@hoptrack/proto';
import { withPooledBus, type AudiencePart, type PooledDatabaseAndBus, type Logger, packageDir, audienceMigrationDirs, type DatabasePart, directDatabaseUrl } from '@hoptrack/runtime';
import { Redis } from 'ioredis';
import path from 'node:path';
import type { MessagingConfig } from './config';
import { createPrisma, type PrismaClient } from './db';

export const migrationsDir = path.join(packageDir('@hoptrack/messaging'), 'prisma/migrations');
/** The audience tables this service keeps: people (names, the allow-DM and online-status switches, token versions) and the graph (blocks, friendships for presence). */
export const AUDIENCE: readonly AudiencePart[] = ['people', 'graph'];

/**
 * Its database as a part of the definition: the service's own migrations and the audience tables it keeps.
 * The runtime creates and migrates it before connecting (assembleService); the operators' Job (infra/ops/migrate.ts) applies the same.
 */
export const database: DatabasePart<MessagingConfig> = { url: (config) => config.DATABASE_URL, migrationUrl: directDatabaseUrl, migrations: migrationsDir, include: audienceMigrationDirs(AUDIENCE) };

export interface MessagingConnections extends PooledDatabaseAndBus<PrismaClient> {
  /** Presence: who has a live stream open, shared by every instance. */
  redis: Redis;
}

/**
 * The streams the live feed reads for the declared pushes (the bell's NOTIFICATIONS, an invitation's
 * answer on CHALLENGES…): ensured here too, since messaging may start before the service that publishes them.
 */
const LIVE_STREAMS: StreamName[] = [...new Set(LIVE_PUSHES.map((push) => push.stream))];

/** The migrated database, Redis, and the bus with the streams of messaging's contract and the live pushes'. */
export async function openConnections(config: MessagingConfig, logger: Logger, name: string): Promise<MessagingConnections> {
  const database = { url: config.DATABASE_URL, poolMax: config.DATABASE_POOL_MAX, onPoolError: (err: Error) => logger.warn({ err }, 'idle database connection lost; the pool reconnects') };
  const stores = await withPooledBus(createPrisma, database, {
    url: config.NATS_URL,
    name,
    namespace: config.BUS_NAMESPACE,
    streamReplicas: config.NATS_STREAM_REPLICAS,
    logger,
    streams: [...new Set<StreamName>([...processStreams('messaging'), ...LIVE_STREAMS])],
  });
  // Auto-pipelining: every stream's heartbeat renewal goes out in one write.
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
  return {
    ...stores,
    redis,
    async close() {
      redis.disconnect();
      await stores.close();
    },
  };
}
