import { prepareDatabase, withPooledBus, type AudiencePart, type Logger, type PooledDatabaseAndBus, packageDir, audienceMigrationDirs } from '@hoptrack/runtime';
import { PrismaPg } from '@prisma/adapter-pg';
import path from 'node:path';
import type { SocialConfig } from './config';
import { PrismaClient } from './db';

export const migrationsDir = path.join(packageDir('@hoptrack/social-graph'), 'prisma/migrations');
/** The audience tables this service keeps: people only (the graph is this service's own friendships and blocks). */
export const AUDIENCE: readonly AudiencePart[] = ['people'];

export type SocialConnections = PooledDatabaseAndBus<PrismaClient>;

export async function openConnections(config: SocialConfig, logger: Logger): Promise<SocialConnections> {
  await prepareDatabase(config.DATABASE_URL, migrationsDir, logger, { include: audienceMigrationDirs(AUDIENCE) });
  return withPooledBus((pool) => new PrismaClient({ adapter: new PrismaPg(pool) }), { url: config.DATABASE_URL, poolMax: config.DATABASE_POOL_MAX }, {
    url: config.NATS_URL,
    name: 'social-graph',
    namespace: config.BUS_NAMESPACE,
    streamReplicas: config.NATS_STREAM_REPLICAS,
    logger,
    streams: ['USERS', 'SOCIAL', 'SESSIONS'],
  });
}
