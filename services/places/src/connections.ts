import { processStreams } from '@hoptrack/proto';
import { withPooledBus, type AudiencePart, type PooledDatabaseAndBus, type Logger, packageDir, audienceMigrationDirs, type DatabasePart, directDatabaseUrl } from '@hoptrack/runtime';
import path from 'node:path';
import { seedDemoMenus } from './catalogue/demo-menus';
import { seedCatalogue } from './catalogue/seed';
import type { PlacesConfig } from './config';
import { createPrisma, type PrismaClient } from './db';
import { barsRepository } from './repositories/bars.repository';

export const migrationsDir = path.join(packageDir('@hoptrack/places'), 'prisma/migrations');
/** The audience tables this service keeps: people (reviewers' names, token versions) and the graph (blocks). */
export const AUDIENCE: readonly AudiencePart[] = ['people', 'graph'];

/**
 * Its database as a part of the definition: the service's own migrations and the audience tables it keeps.
 * The runtime creates and migrates it before connecting (assembleService); the operators' Job (infra/ops/migrate.ts) applies the same.
 */
export const database: DatabasePart<PlacesConfig> = { url: (config) => config.DATABASE_URL, migrationUrl: directDatabaseUrl, migrations: migrationsDir, include: audienceMigrationDirs(AUDIENCE) };

export type PlacesConnections = PooledDatabaseAndBus<PrismaClient>;

/** The catalogue loaded when it is empty (and seeding is on), and the demo menus. */
async function seedDatabase(prisma: PrismaClient, config: PlacesConfig, logger: Logger): Promise<void> {
  if (config.CATALOGUE_SEED === 'auto' && (await barsRepository.count(prisma)) === 0) await seedCatalogue(prisma, logger);
  if (config.DEMO_MENUS === 'on') await seedDemoMenus(prisma, logger);
}

/**
 * The database (seeded) and the bus: user and social events feed the audience
 * tables (reviewers' names, blocks); PLACES is the stream its review events go to.
 */
export async function openConnections(config: PlacesConfig, logger: Logger): Promise<PlacesConnections> {
  const database = { url: config.DATABASE_URL, poolMax: config.DATABASE_POOL_MAX, onPoolError: (err: Error) => logger.warn({ err }, 'idle database connection lost; the pool reconnects') };
  const connections = await withPooledBus(createPrisma, database, {
    url: config.NATS_URL,
    name: 'places',
    namespace: config.BUS_NAMESPACE,
    streamReplicas: config.NATS_STREAM_REPLICAS,
    logger,
    streams: processStreams('places'),
  });
  try {
    await seedDatabase(connections.prisma, config, logger);
  } catch (err) {
    await connections.close();
    throw err;
  }
  return connections;
}
