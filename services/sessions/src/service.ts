import { defineService, erasureConsumer, exportConsumer, startAudience } from '@hoptrack/runtime';
import { buildSessionsApp } from './app';
import { sessionsConfigSchema } from './config';
import { AUDIENCE, database, openConnections } from './connections';
import { startCardsConsumer } from './consumers/cards.consumer';
import { SessionsErasure, sweepFollowersBeforeForget } from './domain/erasure';
import { exportSessions } from './domain/export';

/**
 * The sessions service: beer sessions, likes, comments, reactions and the
 * feed's reads; what it reads and publishes is its contract in proto
 * (PROCESS_CONTRACTS.sessions). The fan-out that writes the timelines is its
 * own process (workers/fanout: fanoutService).
 */
export const sessionsService = defineService({
  name: 'sessions',
  configSchema: sessionsConfigSchema,
  database,
  connect: ({ config, logger }) => openConnections(config, logger, 'sessions'),
  build: ({ config, logger, metrics, clock, connections }) => buildSessionsApp({ config, logger, metrics, clock, ...connections }),
  consumers: {
    // People and the graph; sessions' people also live in Redis (the feed's names and pictures, every request's token version), written as each snapshot is applied.
    // After each graph commit, the backfills its fan-out copied before it are announced (feed/backfill-announce.ts).
    audience: ({ config, connections, parts, logger }) =>
      startAudience({
        bus: connections.bus,
        logger,
        db: connections.prisma,
        durable: config.READ_MODEL_CONSUMER,
        parts: AUDIENCE,
        peopleCache: parts.people,
        afterGraphCommit: (events) => parts.backfills.committed(events),
        // The person's entries leave their followers' timelines before the graph rows that list them go (whichever of this and the erasure runs first).
        beforeForget: sweepFollowersBeforeForget(parts.timelines),
      }),
    cards: ({ config, connections, parts, logger }) => startCardsConsumer({ bus: connections.bus, cards: parts.cards, durable: config.CARDS_CONSUMER, logger }),
    // The account deletion's part here (issue 24), beside the audience consumer that removes the person from the people table:
    // Redis (timelines, cards, people, fan-out jobs) swept before the rows go and again once they are gone (SessionsErasure).
    erasure: erasureConsumer('sessions', ({ config, connections, parts, logger }) => {
      const erasure = new SessionsErasure({
        prisma: connections.prisma,
        redis: connections.redis,
        timelines: parts.timelines,
        cards: parts.cards,
        people: parts.people,
        fanoutQueue: connections.fanoutQueue,
        // A job whose worker died stays active until its lock lapses and the stalled check moves it.
        activeWaitMs: config.FANOUT_LOCK_MS + config.FANOUT_STALLED_INTERVAL_MS,
        logger: logger.child({ component: 'erasure' }),
      });
      return { db: erasure.db, durable: config.READ_MODEL_CONSUMER, outside: erasure.outside, rows: erasure.rows };
    }),
    // Its part of a data export (issue 24).
    export: exportConsumer('sessions', ({ config, connections }) => ({ durable: config.READ_MODEL_CONSUMER, build: (userId) => exportSessions(connections.prisma, userId) })),
  },
});
