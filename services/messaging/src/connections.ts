import { prepareDatabase, withBus, type AudiencePart, type DatabaseAndBus, type Logger, packageDir } from '@hoptrack/runtime';
import path from 'node:path';
import type { MessagingConfig } from './config';
import { createPrisma, type PrismaClient } from './db';

export const migrationsDir = path.join(packageDir('@hoptrack/messaging'), 'prisma/migrations');
/** The audience tables this service keeps: people (names, the allow-DM switch, token versions) and the graph (blocks). */
export const AUDIENCE: readonly AudiencePart[] = ['people', 'graph'];

export type MessagingConnections = DatabaseAndBus<PrismaClient>;

/** The migrated database and the bus, with the streams messaging publishes to (MESSAGES) and reads (USERS, SOCIAL; NOTIFICATIONS for the live bell). */
export async function openConnections(config: MessagingConfig, logger: Logger, name: string): Promise<MessagingConnections> {
  await prepareDatabase(config.DATABASE_URL, migrationsDir, logger, { audience: AUDIENCE });
  return withBus(createPrisma(config.DATABASE_URL, config.DATABASE_POOL_MAX), {
    url: config.NATS_URL,
    name,
    namespace: config.BUS_NAMESPACE,
    streamReplicas: config.NATS_STREAM_REPLICAS,
    logger,
    streams: ['USERS', 'SOCIAL', 'MESSAGES', 'NOTIFICATIONS'],
  });
}
