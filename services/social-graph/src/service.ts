import { defineService, erasureConsumer, exportConsumer, serveGraphSnapshot } from '@hoptrack/runtime';
import { buildSocialApp } from './app';
import { socialConfigSchema } from './config';
import { database, openConnections } from './connections';
import { startSessionsConsumer } from './consumers/sessions.consumer';
import { startUsersConsumer } from './consumers/users.consumer';
import { eraseFromGraph } from './domain/erasure';
import { exportGraph } from './domain/export';
import { graphSnapshotPage } from './repositories/graph-snapshot.repository';

/** The social graph: friendships, blocks, mutes, pins and the stat tiles; what it reads and publishes is its contract in proto (PROCESS_CONTRACTS['social-graph']). */
export const socialGraphService = defineService({
  name: 'social-graph',
  configSchema: socialConfigSchema,
  database,
  connect: ({ config, logger }) => openConnections(config, logger),
  build: ({ config, logger, metrics, clock, connections }) => buildSocialApp({ config, logger, metrics, clock, ...connections }),
  consumers: {
    users: ({ config, connections, logger }) => startUsersConsumer({ bus: connections.bus, prisma: connections.prisma, durable: config.READ_MODEL_CONSUMER, logger }),
    sessions: ({ config, connections, logger }) => startSessionsConsumer({ bus: connections.bus, sql: connections.sql, durable: config.SESSIONS_CONSUMER, logger }),
    // The account deletion's part here (issue 24, see eraseFromGraph): nothing of it lives outside the database.
    // Its durable is `<READ_MODEL_CONSUMER>-erasure`, beside the audience consumer's.
    erasure: erasureConsumer('social-graph', ({ config, connections }) => ({ db: connections.prisma, durable: config.READ_MODEL_CONSUMER, rows: eraseFromGraph })),
    // Not a consumer of events: the answer to a graph read model that missed events and rebuilds (runtime audience/graph-snapshot.ts).
    graphSnapshot: async ({ connections, logger }) =>
      serveGraphSnapshot(connections.bus, (request) => graphSnapshotPage(connections.prisma, request), logger.child({ component: 'graph-snapshot' })),
    // The export's stats are counted at the service's clock, as /api/me/stats counts them.
    export: exportConsumer('social-graph', ({ config, connections, clock }) => ({
      durable: config.READ_MODEL_CONSUMER,
      build: (userId) => exportGraph(connections.prisma, userId, clock()),
    })),
  },
});
