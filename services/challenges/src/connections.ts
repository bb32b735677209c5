import { processStreams } from '@hoptrack/proto';
import { withPooledBus, type AudiencePart, type Logger, type PooledDatabaseAndBus, packageDir, audienceMigrationDirs, type DatabasePart, directDatabaseUrl } from '@hoptrack/runtime';
import { PrismaPg } from '@prisma/adapter-pg';
import path from 'node:path';
import type { ChallengesConfig } from './config';
import { PrismaClient } from './db';

export const migrationsDir = path.join(packageDir('@hoptrack/challenges'), 'prisma/migrations');
/** The audience tables this service keeps: people (names, pictures, privacy, token versions) and the graph (friendships, blocks). */
export const AUDIENCE: readonly AudiencePart[] = ['people', 'graph'];

/**
 * Its database as a part of the definition: the service's own migrations and the audience tables it keeps.
 * The runtime creates and migrates it before connecting (assembleService); the operators' Job (infra/ops/migrate.ts) applies the same.
 */
export const database: DatabasePart<ChallengesConfig> = { url: (config) => config.DATABASE_URL, migrationUrl: directDatabaseUrl, migrations: migrationsDir, include: audienceMigrationDirs(AUDIENCE) };

export type ChallengesConnections = PooledDatabaseAndBus<PrismaClient>;

/** The migrated database and the bus: the streams whose events make progress, and CHALLENGES, which it publishes to. */
export async function openConnections(config: ChallengesConfig, logger: Logger): Promise<ChallengesConnections> {
  return withPooledBus((pool) => new PrismaClient({ adapter: new PrismaPg(pool) }), { url: config.DATABASE_URL, poolMax: config.DATABASE_POOL_MAX }, {
    url: config.NATS_URL,
    name: 'challenges',
    namespace: config.BUS_NAMESPACE,
    streamReplicas: config.NATS_STREAM_REPLICAS,
    logger,
    streams: processStreams('challenges'),
  });
}
