import { processStreams } from '@hoptrack/proto';
import { withBus, type AudiencePart, type DatabaseAndBus, type Logger, type TransactionalSqlClient, packageDir, audienceMigrationDirs, type DatabasePart, directDatabaseUrl } from '@hoptrack/runtime';
import type { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import path from 'node:path';
import type { SessionsConfig } from './config';
import { createDatabase, type PreparedSql, type PrismaClient } from './db';
import type { FanoutJob } from './feed/fanout';
import { createFanoutQueue, fanoutQueueSettings } from './feed/queue';

export const migrationsDir = path.join(packageDir('@hoptrack/sessions'), 'prisma/migrations');
/** The audience tables this service keeps: people (names, privacy, token versions) and the graph (follows, blocks, mutes). */
export const AUDIENCE: readonly AudiencePart[] = ['people', 'graph'];

/**
 * Its database as a part of the definition: the service's own migrations and the audience tables it keeps.
 * The runtime creates and migrates it before connecting (assembleService); the operators' Job (infra/ops/migrate.ts) applies the same.
 */
export const database: DatabasePart<SessionsConfig> = { url: (config) => config.DATABASE_URL, migrationUrl: directDatabaseUrl, migrations: migrationsDir, include: audienceMigrationDirs(AUDIENCE) };

export interface SessionsConnections extends DatabaseAndBus<PrismaClient> {
  /** The hot path's named statements, over Prisma's pool. */
  prepared: PreparedSql;
  /** Plain SQL over Prisma's pool: the outbox relay. */
  sql: TransactionalSqlClient;
  /** Cards and people live here, and the fan-out queue. */
  redis: Redis;
  /** Timelines live here: TIMELINE_REDIS_URL's Redis, or the same client as `redis` when it is unset or the same. */
  timelineRedis: Redis;
  /**
   * The fan-out's queue (BullMQ, Redis): the fan-out's consumers and jobs add
   * to it, the API's erasure consumer takes a person's jobs out of it, so it
   * closes with the connections, after both.
   */
  fanoutQueue: Queue<FanoutJob>;
}

/** Database (migrated), bus (streams ensured), Redis and the fan-out queue: what the API and the fan-out worker both need. */
export async function openConnections(config: SessionsConfig, logger: Logger, name: string, onStatement?: (sql: string) => void): Promise<SessionsConnections> {
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
    streams: processStreams('sessions', 'sessions-fanout'),
  });
  // Auto-pipelining: the commands of concurrent requests (and a page's own, issued together) share one write.
  const redisOf = (url: string) => new Redis(url, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
  const redis = redisOf(config.REDIS_URL);
  const timelinesApart = config.TIMELINE_REDIS_URL !== undefined && config.TIMELINE_REDIS_URL !== config.REDIS_URL;
  const timelineRedis = timelinesApart && config.TIMELINE_REDIS_URL ? redisOf(config.TIMELINE_REDIS_URL) : redis;
  const fanoutQueue = createFanoutQueue(fanoutQueueSettings(config));
  return {
    ...stores,
    readiness: { ...stores.readiness, redis: () => redis.ping(), ...(timelinesApart ? { timelineRedis: () => timelineRedis.ping() } : {}) },
    prepared: database.prepared,
    sql: database.sql,
    redis,
    timelineRedis,
    fanoutQueue,
    async close() {
      try {
        await fanoutQueue.close();
      } finally {
        redis.disconnect();
        if (timelinesApart) timelineRedis.disconnect();
        await stores.close();
        await database.close();
      }
    },
  };
}
