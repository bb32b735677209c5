import { eventDrivenService, runService, startExportContributor } from '@hoptrack/runtime';
import { buildPlacesApp } from './app';
import { placesConfigSchema } from './config';
import { openConnections } from './connections';
import { startErasureConsumer } from './consumers/erasure.consumer';
import { startReadModelConsumers } from './consumers/read-model.consumer';
import { exportPlaces } from './domain/export';

await runService({
  name: 'places',
  configSchema: placesConfigSchema,
  async build({ config, logger, metrics }) {
    const connections = await openConnections(config, logger);
    const { app, relay } = buildPlacesApp({ config, logger, metrics, ...connections });
    return eventDrivenService({
      app,
      metrics,
      connections,
      relay,
      consumers: async () => [
        ...(await startReadModelConsumers({ bus: connections.bus, prisma: connections.prisma, durable: config.READ_MODEL_CONSUMER, logger })),
        // The account deletion's part here (issue 24), beside the audience consumer that removes the person from the people table.
        await startErasureConsumer({ bus: connections.bus, prisma: connections.prisma, durable: config.READ_MODEL_CONSUMER, logger }),
        // Its part of a data export (issue 24).
        await startExportContributor({
          bus: connections.bus,
          durable: config.READ_MODEL_CONSUMER,
          service: 'places',
          logger,
          build: (userId) => exportPlaces(connections.prisma, userId),
        }),
      ],
    });
  },
});
