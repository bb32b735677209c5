import { eventDrivenService, runService, startExportContributor } from '@hoptrack/runtime';
import { buildMessagingApp } from './app';
import { messagingConfigSchema } from './config';
import { openConnections } from './connections';
import { startErasureConsumer } from './consumers/erasure.consumer';
import { startReadModelConsumers } from './consumers/read-model.consumer';
import { exportMessages } from './domain/export';
import { startLiveFeed, type RunningLiveFeed } from './live/feed';

await runService({
  name: 'messaging',
  configSchema: messagingConfigSchema,
  async build({ config, logger, metrics }) {
    const connections = await openConnections(config, logger, 'messaging');
    const { app, relay, hub, presence } = buildMessagingApp({ config, logger, metrics, ...connections });
    // Subscribed before the port opens: no stream can say `ready` before its events can reach it.
    const liveFeed: RunningLiveFeed = await startLiveFeed({ bus: connections.bus, hub, presence, logger });
    presence.start();
    return eventDrivenService({
      app,
      metrics,
      connections,
      relay,
      consumers: async () => [
        ...(await startReadModelConsumers({ bus: connections.bus, prisma: connections.prisma, durable: config.READ_MODEL_CONSUMER, logger })),
        // The account deletion's part here (issue 24), beside the audience consumer that removes the person from the people table.
        await startErasureConsumer({
          bus: connections.bus,
          prisma: connections.prisma,
          redis: connections.redis,
          namespace: config.BUS_NAMESPACE,
          durable: config.READ_MODEL_CONSUMER,
          logger,
        }),
        // Its part of a data export (issue 24).
        await startExportContributor({
          bus: connections.bus,
          durable: config.READ_MODEL_CONSUMER,
          service: 'messaging',
          logger,
          build: (userId) => exportMessages(connections.prisma, userId),
        }),
      ],
      first: [
        { name: 'live feed', close: () => liveFeed.stop() },
        { name: 'presence', close: async () => presence.stop() },
      ],
    });
  },
});
