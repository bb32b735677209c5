import { LIVE_PUSHES } from '@hoptrack/proto';
import { audienceLiveReactions, defineService, erasureConsumer, exportConsumer, startAudience, startLiveFeed } from '@hoptrack/runtime';
import { buildMessagingApp } from './app';
import { messagingConfigSchema } from './config';
import { AUDIENCE, database, openConnections } from './connections';
import { eraseMessagingRows } from './domain/erasure';
import { exportMessages } from './domain/export';
import { presenceLiveReactions, presenceLiveSubject } from './presence/live';
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
    // The runtime's live feed relays every declared push (proto LIVE_PUSHES, messaging's and the other features');
    // presence's reactions come before the audience's (an erased person's presence goes before their streams close).
    const liveFeed = await startLiveFeed({
      bus: connections.bus,
      hub: parts.hub,
      pushes: LIVE_PUSHES,
      reactions: [presenceLiveReactions(parts.presence), audienceLiveReactions],
      subjects: [presenceLiveSubject(connections.bus.namespace)],
      logger,
    });
    parts.presence.start();
    return [
      { name: 'live feed', close: () => liveFeed.stop() },
      { name: 'presence', close: async () => parts.presence.stop() },
    ];
  },
  consumers: {
    // What messaging needs from other services: people (names, the allow-DM switch, token versions) and blocks; friendship plays no part (anyone may message anyone who allows it).
    audience: ({ config, connections, logger }) => startAudience({ bus: connections.bus, logger, db: connections.prisma, durable: config.READ_MODEL_CONSUMER, parts: AUDIENCE }),
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
