import { createLogger, loadConfig, migrateDatabase, sharedPool } from '@hoptrack/runtime';
import { placesConfigSchema } from '../config';
import { database } from '../connections';
import { createPrisma } from '../db';
import { seedCatalogue } from './seed';

/** `npm run seed -w @hoptrack/places`: (re)load the catalogue; idempotent. */
const config = loadConfig('places-seed', placesConfigSchema);
const logger = createLogger('places-seed', config.LOG_LEVEL);
await migrateDatabase(database, config, logger);
const pool = sharedPool(config.DATABASE_URL, { poolMax: config.DATABASE_POOL_MAX });
const prisma = createPrisma(pool.pool);
try {
  await seedCatalogue(prisma, logger);
} finally {
  await prisma.$disconnect();
  await pool.end();
}
