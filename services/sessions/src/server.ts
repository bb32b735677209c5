import { eventDrivenService, runService } from '@hoptrack/runtime';
import { buildSessionsApp } from './app';
import { sessionsConfigSchema } from './config';
import { openConnections } from './connections';
import { startReadModelConsumers } from './consumers/read-model.consumer';

await runService({
  name: 'sessions',
  configSchema: sessionsConfigSchema,
  async build({ config, logger, metrics }) {
    const connections = await openConnections(config, logger, 'sessions');
    const { app, relay } = buildSessionsApp({ config, logger, metrics, ...connections });
    return eventDrivenService({
      app,
      metrics,
      connections,
      relay,
      consumers: () => startReadModelConsumers({ bus: connections.bus, prisma: connections.prisma, durable: config.READ_MODEL_CONSUMER, logger }),
    });
  },
});
