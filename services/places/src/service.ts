import { defineService, erasureConsumer, exportConsumer, startAudience } from '@hoptrack/runtime';
import { buildPlacesApp } from './app';
import { placesConfigSchema } from './config';
import { AUDIENCE, database, openConnections } from './connections';
import { erasePlacesRows } from './domain/erasure';
import { exportPlaces } from './domain/export';

/** The places service: bars, beers and reviews; what it reads and publishes is its contract in proto (PROCESS_CONTRACTS.places). */
export const placesService = defineService({
  name: 'places',
  configSchema: placesConfigSchema,
  database,
  connect: ({ config, logger }) => openConnections(config, logger),
  build: ({ config, logger, metrics, connections }) => buildPlacesApp({ config, logger, metrics, ...connections }),
  consumers: {
    // What reviews need from other services: reviewers' names and pictures, token versions, blocks.
    audience: ({ config, connections, logger }) => startAudience({ bus: connections.bus, logger, db: connections.prisma, durable: config.READ_MODEL_CONSUMER, parts: AUDIENCE }),
    // The account deletion's part here (issue 24), beside the audience consumer that removes the person from the people table.
    erasure: erasureConsumer('places', ({ config, connections }) => ({ db: connections.prisma, durable: config.READ_MODEL_CONSUMER, rows: erasePlacesRows })),
    export: exportConsumer('places', ({ config, connections }) => ({ durable: config.READ_MODEL_CONSUMER, build: (userId) => exportPlaces(connections.prisma, userId) })),
  },
});
