import { eventDrivenService, runService, startExportContributor } from '@hoptrack/runtime';
import { buildSocialApp } from './app';
import { socialConfigSchema } from './config';
import { openConnections } from './connections';
import { startErasureConsumer } from './consumers/erasure.consumer';
import { startSessionsConsumer } from './consumers/sessions.consumer';
import { startUsersConsumer } from './consumers/users.consumer';
import { exportGraph } from './domain/export';

await runService({
  name: 'social-graph',
  configSchema: socialConfigSchema,
  async build({ config, logger, metrics }) {
    const connections = await openConnections(config, logger);
    const { app, relay } = await buildSocialApp({ config, logger, metrics, ...connections });
    return eventDrivenService({
      app,
      metrics,
      connections,
      relay,
      consumers: () =>
        Promise.all([
          startUsersConsumer({ bus: connections.bus, prisma: connections.prisma, durable: config.READ_MODEL_CONSUMER, logger }),
          startSessionsConsumer({ bus: connections.bus, sql: connections.sql, durable: config.SESSIONS_CONSUMER, logger }),
          startErasureConsumer({ bus: connections.bus, prisma: connections.prisma, durable: config.READ_MODEL_CONSUMER, logger }),
          startExportContributor({
            bus: connections.bus,
            durable: config.READ_MODEL_CONSUMER,
            service: 'social-graph',
            logger,
            build: (userId) => exportGraph(connections.prisma, userId),
          }),
        ]),
    });
  },
});
