import { defineService, erasureConsumer, exportConsumer, startAudience, Outbox } from '@hoptrack/runtime';
import { buildMediaApp } from './app';
import { mediaConfigSchema } from './config';
import { AUDIENCE, database, openConnections } from './connections';
import { mediaErasure } from './domain/erasure';
import { mediaExportPart } from './domain/export';
import { deleteExportParts, startExportAssembler } from './exports/assembler';

/**
 * The media service: albums, photos, files, and the assembly of data exports;
 * what it reads and publishes is its contract in proto (PROCESS_CONTRACTS.media).
 * Thumbnails are rendered by its own process, mediaWorkerService.
 */
export const mediaService = defineService({
  name: 'media',
  configSchema: mediaConfigSchema,
  database,
  connect: ({ config, logger }) => openConnections(config, logger, 'media'),
  build: ({ config, logger, metrics, clock, connections }) => buildMediaApp({ config, logger, metrics, clock, ...connections }),
  consumers: {
    // What media needs from other services: people's private switch, friendships and blocks.
    audience: ({ config, connections, logger }) => startAudience({ bus: connections.bus, logger, db: connections.prisma, durable: config.READ_MODEL_CONSUMER, parts: AUDIENCE }),
    // The account deletion's part here (issue 24): the person's files, albums and photos, and
    // the parts of their exports still being assembled (see mediaErasure). Durable `<READ_MODEL_CONSUMER>-erasure`.
    erasure: erasureConsumer('media', ({ config, connections }) => {
      const erasure = mediaErasure(connections.store, { delete: (exportId) => deleteExportParts(connections.bus, exportId) });
      return { db: connections.prisma, durable: config.READ_MODEL_CONSUMER, outside: erasure.outside, rows: erasure.rows };
    }),
    export: exportConsumer('media', ({ config, connections }) => ({ durable: config.READ_MODEL_CONSUMER, build: (userId) => mediaExportPart(connections.prisma, userId) })),
    // Builds the zip once every service's part is in, and announces it (user.export.ready.v1) through the outbox.
    assembler: ({ config, connections, logger, poke }) =>
      startExportAssembler({
        bus: connections.bus,
        prisma: connections.prisma,
        store: connections.store,
        outbox: new Outbox(config.BUS_NAMESPACE),
        onEventsCommitted: poke,
        durable: config.READ_MODEL_CONSUMER,
        ttlMs: config.EXPORT_TTL_HOURS * 3600_000,
        logger,
      }),
  },
});
