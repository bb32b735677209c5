import { pgSqlClient, prepareDatabase, withPooledBus, type AudiencePart, type Logger, type PooledDatabaseAndBus, type SqlClient, packageDir, audienceMigrationDirs } from '@hoptrack/runtime';
import { PrismaPg } from '@prisma/adapter-pg';
import path from 'node:path';
import type { NotificationsConfig } from './config';
import { PrismaClient } from './db';

export const migrationsDir = path.join(packageDir('@hoptrack/notifications'), 'prisma/migrations');
/** The audience tables this service keeps: people (actors' names and pictures, privacy, token versions) and the graph (friendships, blocks, mutes). */
export const AUDIENCE: readonly AudiencePart[] = ['people', 'graph'];

export interface NotificationsConnections extends PooledDatabaseAndBus<PrismaClient> {
  /**
   * The inbox's hot reads (a page, the unread count), sent by name over
   * Prisma's pool: the page's statement took about as long to plan as to run.
   */
  reads: SqlClient;
}

/** The migrated database and the bus: the streams whose events make notifications, and NOTIFICATIONS, which it publishes to. */
export async function openConnections(config: NotificationsConfig, logger: Logger): Promise<NotificationsConnections> {
  await prepareDatabase(config.DATABASE_URL, migrationsDir, logger, { include: audienceMigrationDirs(AUDIENCE) });
  const connections = await withPooledBus(
    (pool) => new PrismaClient({ adapter: new PrismaPg(pool) }),
    { url: config.DATABASE_URL, poolMax: config.DATABASE_POOL_MAX, onPoolError: (err) => logger.warn({ err }, 'idle database connection failed') },
    {
      url: config.NATS_URL,
      name: 'notifications',
      namespace: config.BUS_NAMESPACE,
      streamReplicas: config.NATS_STREAM_REPLICAS,
      logger,
      streams: ['USERS', 'SOCIAL', 'SESSIONS', 'MESSAGES', 'CHALLENGES', 'NOTIFICATIONS'],
    },
  );
  return { ...connections, reads: pgSqlClient(connections.pool, undefined, { named: true }) };
}
