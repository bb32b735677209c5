import { prepareDatabase, withBus, type AudiencePart, type DatabaseAndBus, type Logger, packageDir } from '@hoptrack/runtime';
import path from 'node:path';
import type { SocialConfig } from './config';
import { createPrisma, type PrismaClient } from './db';

export const migrationsDir = path.join(packageDir('@hoptrack/social-graph'), 'prisma/migrations');
/** The audience tables this service keeps: people only (the graph is this service's own friendships and blocks). */
export const AUDIENCE: readonly AudiencePart[] = ['people'];

export type SocialConnections = DatabaseAndBus<PrismaClient>;

export async function openConnections(config: SocialConfig, logger: Logger): Promise<SocialConnections> {
  await prepareDatabase(config.DATABASE_URL, migrationsDir, logger, { audience: AUDIENCE });
  return withBus(createPrisma(config.DATABASE_URL, config.DATABASE_POOL_MAX), {
    url: config.NATS_URL,
    name: 'social-graph',
    namespace: config.BUS_NAMESPACE,
    streamReplicas: config.NATS_STREAM_REPLICAS,
    logger,
    streams: ['USERS', 'SOCIAL', 'SESSIONS'],
  });
}
