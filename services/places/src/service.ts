import { defineService, erasureConsumer, exportConsumer } from '@hoptrack/runtime';
import { buildPlacesApp } from './app';
import { placesConfigSchema } from './config';
import { database, openConnections } from './connections';
import { erasePlacesRows } from './domain/erasure';
import { startReadModelConsumers } from './consumers/read-model.consumer';
import { exportPlaces } from './domain/export';

/** The places service: bars, beers and reviews; what it reads and publishes is its contract in proto (PROCESS_CONTRACTS.places). */
export const placesService = defineService({
  name: 'places',
  configSchema: placesConfigSchema,
  database,
  connect: ({ config, logger }) => openConnections(config, logger),
  build: ({ config, logger, metrics, connections }) => buildPlacesApp({ config, logger, metrics, ...connections }),
  consumers: {
    audience: ({ config, connections, logger }) => startReadModelConsumers({ bus: connections.bus, prisma: connections.prisma, durable: config.READ_MODEL_CONSUMER, logger }),
    // The account deletion's part here (issue 24), beside the audience consumer that removes the person from the people table.
    erasure: erasureConsumer('places', ({ config, connections }) => ({ db: connections.prisma, durable: config.READ_MODEL_CONSUMER, rows: erasePlacesRows })),
    export: exportConsumer('places', ({ config, connections }) => ({ durable: config.READ_MODEL_CONSUMER, build: (userId) => exportPlaces(connections.prisma, userId) })),
  },
});
