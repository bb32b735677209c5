import { eventDrivenService, runService } from '@hoptrack/runtime';
import { buildPlacesApp } from './app';
import { placesConfigSchema } from './config';
import { openConnections } from './connections';
import { startReadModelConsumers } from './consumers/read-model.consumer';

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
      consumers: () => startReadModelConsumers({ bus: connections.bus, prisma: connections.prisma, durable: config.READ_MODEL_CONSUMER, logger }),
    });
  },
});
