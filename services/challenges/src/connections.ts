import { prepareDatabase, withPooledBus, type AudiencePart, type Logger, type PooledDatabaseAndBus, packageDir, audienceMigrationDirs } from '@hoptrack/runtime';
import { PrismaPg } from '@prisma/adapter-pg';
import path from 'node:path';
import type { ChallengesConfig } from './config';
import { PrismaClient } from './db';

export const migrationsDir = path.join(packageDir('@hoptrack/challenges'), 'prisma/migrations');
/** The audience tables this service keeps: people (names, pictures, privacy, token versions) and the graph (friendships, blocks). */
export const AUDIENCE: readonly AudiencePart[] = ['people', 'graph'];

export type ChallengesConnections = PooledDatabaseAndBus<PrismaClient>;

/** The migrated database and the bus: the streams whose events make progress, and CHALLENGES, which it publishes to. */
export async function openConnections(config: ChallengesConfig, logger: Logger): Promise<ChallengesConnections> {
  await prepareDatabase(config.DATABASE_URL, migrationsDir, logger, { include: audienceMigrationDirs(AUDIENCE) });
  return withPooledBus((pool) => new PrismaClient({ adapter: new PrismaPg(pool) }), { url: config.DATABASE_URL, poolMax: config.DATABASE_POOL_MAX }, {
    url: config.NATS_URL,
    name: 'challenges',
    namespace: config.BUS_NAMESPACE,
    streamReplicas: config.NATS_STREAM_REPLICAS,
    logger,
    streams: ['USERS', 'SOCIAL', 'SESSIONS', 'MEDIA', 'PLACES', 'CHALLENGES'],
  });
}
