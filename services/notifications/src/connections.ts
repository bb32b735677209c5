import { processStreams } from '@hoptrack/proto';
import { pgSqlClient, withPooledBus, type AudiencePart, type Logger, type PooledDatabaseAndBus, type SqlClient, packageDir, audienceMigrationDirs, type DatabasePart, directDatabaseUrl } from '@hoptrack/runtime';
import { PrismaPg } from '@prisma/adapter-pg';
import path from 'node:path';
import type { Queue } from 'bullmq';
import type { NotificationsConfig } from './config';
import { PrismaClient } from './db';
import type { DigestJob } from './mail/digests';
import { createMailQueue, mailQueueSettings } from './mail/queue';

export const migrationsDir = path.join(packageDir('@hoptrack/notifications'), 'prisma/migrations');
/** The audience tables this service keeps: people (actors' names and pictures, privacy, token versions) and the graph (friendships, blocks, mutes). */
export const AUDIENCE: readonly AudiencePart[] = ['people', 'graph'];

/**
 * Its database as a part of the definition: the service's own migrations and the audience tables it keeps.
 * The runtime creates and migrates it before connecting (assembleService); the operators' Job (infra/ops/migrate.ts) applies the same.
 */
export const database: DatabasePart<NotificationsConfig> = { url: (config) => config.DATABASE_URL, migrationUrl: directDatabaseUrl, migrations: migrationsDir, include: audienceMigrationDirs(AUDIENCE) };

export interface NotificationsConnections extends PooledDatabaseAndBus<PrismaClient> {
  /**
   * The inbox's hot reads (a page, the unread count), sent by name over
   * Prisma's pool: the page's statement took about as long to plan as to run.
   */
  reads: SqlClient;
  /**
   * The mail digests' queue (Redis): the inbox consumers add to it, the
   * erasure consumer takes a person's jobs out of it, so it closes with the
   * connections, once those consumers have stopped (the mail worker has
   * stopped before them).
   */
  mailQueue: Queue<DigestJob>;
}

/**
 * The migrated database, the bus (the streams whose events make
 * notifications, and NOTIFICATIONS, which it publishes to) and the mail
 * digests' queue.
 */
export async function openConnections(config: NotificationsConfig, logger: Logger): Promise<NotificationsConnections> {
  const connections = await withPooledBus(
    (pool) => new PrismaClient({ adapter: new PrismaPg(pool) }),
    { url: config.DATABASE_URL, poolMax: config.DATABASE_POOL_MAX, onPoolError: (err) => logger.warn({ err }, 'idle database connection failed') },
    {
      url: config.NATS_URL,
      name: 'notifications',
      namespace: config.BUS_NAMESPACE,
      streamReplicas: config.NATS_STREAM_REPLICAS,
      logger,
      streams: processStreams('notifications'),
    },
  );
  const mailQueue = createMailQueue(mailQueueSettings(config));
  return {
    ...connections,
    reads: pgSqlClient(connections.pool, undefined, { named: true }),
    mailQueue,
    async close() {
      try {
        await mailQueue.close();
      } finally {
        await connections.close();
      }
    },
  };
}
