import { defineService, erasureConsumer, exportConsumer } from '@hoptrack/runtime';
import { buildMessagingApp } from './app';
import { messagingConfigSchema } from './config';
import { database, openConnections } from './connections';
import { startReadModelConsumers } from './consumers/read-model.consumer';
import { eraseMessagingRows } from './domain/erasure';
import { exportMessages } from './domain/export';
import { startLiveFeed } from './live/feed';
import { forgetPresence, presencePrefix } from './presence/store';

/** The messaging service: conversations, messages and the live stream; what it reads and publishes is its contract in proto (PROCESS_CONTRACTS.messaging). */
export const messagingService = defineService({
  name: 'messaging',
  configSchema: messagingConfigSchema,
  database,
  connect: ({ config, logger }) => openConnections(config, logger, 'messaging'),
  build: ({ config, logger, metrics, clock, connections }) => buildMessagingApp({ config, logger, metrics, clock, ...connections }),
  async workers({ connections, parts, logger }) {
    // Subscribed before the port opens: no stream can say `ready` before its events can reach it.
    const liveFeed = await startLiveFeed({ bus: connections.bus, hub: parts.hub, presence: parts.presence, logger });
    parts.presence.start();
    return [
      { name: 'live feed', close: () => liveFeed.stop() },
      { name: 'presence', close: async () => parts.presence.stop() },
    ];
  },
  consumers: {
    audience: ({ config, connections, logger }) => startReadModelConsumers({ bus: connections.bus, prisma: connections.prisma, durable: config.READ_MODEL_CONSUMER, logger }),
    // The account deletion's part here (issue 24), beside the audience consumer that removes the person from the people table:
    // presence in Redis (outside the database), then the rows.
    erasure: erasureConsumer('messaging', ({ config, connections }) => ({
      db: connections.prisma,
      durable: config.READ_MODEL_CONSUMER,
      outside: (userId) => forgetPresence(connections.redis, presencePrefix(config.BUS_NAMESPACE), userId),
      rows: eraseMessagingRows,
    })),
    // Its part of a data export (issue 24).
    export: exportConsumer('messaging', ({ config, connections }) => ({ durable: config.READ_MODEL_CONSUMER, build: (userId) => exportMessages(connections.prisma, userId) })),
  },
});
