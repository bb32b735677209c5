import { prepareDatabase, withBus, type AudiencePart, type DatabaseAndBus, type Logger, packageDir } from '@hoptrack/runtime';
import path from 'node:path';
import type { NotificationsConfig } from './config';
import { createDatabase, type PrismaClient } from './db';
import type { SqlClient, TransactionalSqlClient } from '@hoptrack/runtime';

export const migrationsDir = path.join(packageDir('@hoptrack/notifications'), 'prisma/migrations');
/** The audience tables this service keeps: people (actors' names and pictures, privacy, token versions) and the graph (friendships, blocks, mutes). */
export const AUDIENCE: readonly AudiencePart[] = ['people', 'graph'];

export interface NotificationsConnections extends DatabaseAndBus<PrismaClient> {
  /** The inbox's hot reads, by named statement over Prisma's pool (db.ts). */
  reads: SqlClient;
  /** Plain SQL over the same pool: the inbox consumers' transactions. */
  sql: TransactionalSqlClient;
}

/** The migrated database and the bus: the streams whose events make notifications, and NOTIFICATIONS, which it publishes to. */
export async function openConnections(config: NotificationsConfig, logger: Logger): Promise<NotificationsConnections> {
  await prepareDatabase(config.DATABASE_URL, migrationsDir, logger, { audience: AUDIENCE });
  const database = createDatabase(config.DATABASE_URL, config.DATABASE_POOL_MAX, (err) => logger.warn({ err }, 'idle database connection failed'));
  const connections = await withBus(database.prisma, {
    url: config.NATS_URL,
    name: 'notifications',
    namespace: config.BUS_NAMESPACE,
    streamReplicas: config.NATS_STREAM_REPLICAS,
    logger,
    streams: ['USERS', 'SOCIAL', 'SESSIONS', 'MESSAGES', 'CHALLENGES', 'NOTIFICATIONS'],
  });
  return {
    ...connections,
    reads: database.reads,
    sql: database.sql,
    async close() {
      await connections.close();
      await database.endPool();
    },
  };
}
