import { processStreams } from '@hoptrack/proto';
import { withPooledBus, type AudiencePart, type Logger, type PooledDatabaseAndBus, packageDir, audienceMigrationDirs, type DatabasePart, directDatabaseUrl } from '@hoptrack/runtime';
import { PrismaPg } from '@prisma/adapter-pg';
import path from 'node:path';
import type { SocialConfig } from './config';
import { PrismaClient } from './db';

export const migrationsDir = path.join(packageDir('@hoptrack/social-graph'), 'prisma/migrations');
/** The audience tables this service keeps: people only (the graph is this service's own friendships and blocks). */
export const AUDIENCE: readonly AudiencePart[] = ['people'];

/**
 * Its database as a part of the definition: the service's own migrations and the audience tables it keeps.
 * The runtime creates and migrates it before connecting (assembleService); the operators' Job (infra/ops/migrate.ts) applies the same.
 */
export const database: DatabasePart<SocialConfig> = { url: (config) => config.DATABASE_URL, migrationUrl: directDatabaseUrl, migrations: migrationsDir, include: audienceMigrationDirs(AUDIENCE) };

export type SocialConnections = PooledDatabaseAndBus<PrismaClient>;

export async function openConnections(config: SocialConfig, logger: Logger): Promise<SocialConnections> {
  return withPooledBus((pool) => new PrismaClient({ adapter: new PrismaPg(pool) }), { url: config.DATABASE_URL, poolMax: config.DATABASE_POOL_MAX }, {
    url: config.NATS_URL,
    name: 'social-graph',
    namespace: config.BUS_NAMESPACE,
    streamReplicas: config.NATS_STREAM_REPLICAS,
    logger,
    streams: processStreams('social-graph'),
  });
}
