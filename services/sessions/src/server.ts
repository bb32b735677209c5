import { eventDrivenService, runService, startExportContributor } from '@hoptrack/runtime';
import { buildSessionsApp } from './app';
import { sessionsConfigSchema } from './config';
import { openConnections } from './connections';
import { startCardsConsumer } from './consumers/cards.consumer';
import { startErasureConsumer } from './consumers/erasure.consumer';
import { startReadModelConsumers } from './consumers/read-model.consumer';
import { exportSessions } from './domain/export';

await runService({
  name: 'sessions',
  configSchema: sessionsConfigSchema,
  async build({ config, logger, metrics }) {
    const connections = await openConnections(config, logger, 'sessions');
    const { app, relay, cards, people, timelines } = buildSessionsApp({ config, logger, metrics, ...connections });
    return eventDrivenService({
      app,
      metrics,
      connections,
      relay,
      consumers: async () => [
        ...(await startReadModelConsumers({ bus: connections.bus, prisma: connections.prisma, durable: config.READ_MODEL_CONSUMER, logger, people })),
        await startCardsConsumer({ bus: connections.bus, cards, durable: config.CARDS_CONSUMER, logger }),
        await startErasureConsumer({ bus: connections.bus, prisma: connections.prisma, redis: connections.redis, config, timelines, cards, people, logger }),
        await startExportContributor({
          bus: connections.bus,
          durable: config.READ_MODEL_CONSUMER,
          service: 'sessions',
          logger,
          build: (userId) => exportSessions(connections.prisma, userId),
        }),
      ],
    });
  },
});
