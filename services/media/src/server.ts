import { eventDrivenService, Outbox, runService, startExportContributor } from '@hoptrack/runtime';
import { buildMediaApp } from './app';
import { mediaConfigSchema } from './config';
import { openConnections } from './connections';
import { startErasureConsumer } from './consumers/erasure.consumer';
import { startReadModelConsumers } from './consumers/read-model.consumer';
import { mediaExportPart } from './domain/export';
import { startExportAssembler } from './exports/assembler';

await runService({
  name: 'media',
  configSchema: mediaConfigSchema,
  async build({ config, logger, metrics }) {
    const connections = await openConnections(config, logger, 'media');
    const { app, relay } = await buildMediaApp({ config, logger, metrics, ...connections });
    return eventDrivenService({
      app,
      metrics,
      connections,
      relay,
      consumers: async () => [
        ...(await startReadModelConsumers({ bus: connections.bus, prisma: connections.prisma, durable: config.READ_MODEL_CONSUMER, logger })),
        await startErasureConsumer({ bus: connections.bus, prisma: connections.prisma, store: connections.store, durable: config.READ_MODEL_CONSUMER, logger }),
        await startExportContributor({
          bus: connections.bus,
          durable: config.READ_MODEL_CONSUMER,
          service: 'media',
          logger,
          build: (userId) => mediaExportPart(connections.prisma, userId),
        }),
        await startExportAssembler({
          bus: connections.bus,
          prisma: connections.prisma,
          store: connections.store,
          outbox: new Outbox(config.BUS_NAMESPACE),
          onEventsCommitted: () => relay.poke(),
          durable: config.READ_MODEL_CONSUMER,
          logger,
        }),
      ],
    });
  },
});
