import { runService } from '@hoptrack/runtime';
import { buildPlacesApp } from './app';
import { placesConfigSchema } from './config';
import { openDatabase } from './connections';

await runService({
  name: 'places',
  configSchema: placesConfigSchema,
  async build({ config, logger, metrics }) {
    const prisma = await openDatabase(config, logger);
    const { app } = buildPlacesApp({ config, logger, metrics, prisma });
    return { app, closers: [{ name: 'postgres', close: () => prisma.$disconnect() }] };
  },
});
