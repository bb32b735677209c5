import { prepareDatabase, withBus, type AudiencePart, type DatabaseAndBus, type Logger, packageDir, audienceMigrationDirs } from '@hoptrack/runtime';
import path from 'node:path';
import { seedDemoMenus } from './catalogue/demo-menus';
import { seedCatalogue } from './catalogue/seed';
import type { PlacesConfig } from './config';
import { createPrisma, type PrismaClient } from './db';

export const migrationsDir = path.join(packageDir('@hoptrack/places'), 'prisma/migrations');
/** The audience tables this service keeps: people (reviewers' names, token versions) and the graph (blocks). */
export const AUDIENCE: readonly AudiencePart[] = ['people', 'graph'];

export type PlacesConnections = DatabaseAndBus<PrismaClient>;

/** The database, migrated, with the catalogue loaded when it is empty (and seeding is on). */
export async function openDatabase(config: PlacesConfig, logger: Logger): Promise<PrismaClient> {
  await prepareDatabase(config.DATABASE_URL, migrationsDir, logger, { include: audienceMigrationDirs(AUDIENCE) });
  const prisma = createPrisma(config.DATABASE_URL, config.DATABASE_POOL_MAX);
  if (config.CATALOGUE_SEED === 'auto' && (await prisma.bar.count()) === 0) await seedCatalogue(prisma, logger);
  if (config.DEMO_MENUS === 'on') await seedDemoMenus(prisma, logger);
  return prisma;
}

/**
 * The database and the bus: user and social events feed the audience tables
 * (reviewers' names, blocks); PLACES is the stream its review events go to.
 */
export async function openConnections(config: PlacesConfig, logger: Logger): Promise<PlacesConnections> {
  return withBus(await openDatabase(config, logger), {
    url: config.NATS_URL,
    name: 'places',
    namespace: config.BUS_NAMESPACE,
    streamReplicas: config.NATS_STREAM_REPLICAS,
    logger,
    streams: ['USERS', 'SOCIAL', 'PLACES'],
  });
}
