import { createLogger, loadConfig, migrateDatabase } from '@hoptrack/runtime';
import { placesConfigSchema } from '../config';
import { database } from '../connections';
import { createPrisma } from '../db';
import { seedCatalogue } from './seed';

/** `npm run seed -w @hoptrack/places`: (re)load the catalogue; idempotent. */
const config = loadConfig('places-seed', placesConfigSchema);
const logger = createLogger('places-seed', config.LOG_LEVEL);
await migrateDatabase(database, config, logger);
const prisma = createPrisma(config.DATABASE_URL, config.DATABASE_POOL_MAX);
try {
  await seedCatalogue(prisma, logger);
} finally {
  await prisma.$disconnect();
}
