import { defineService, erasureConsumer, exportConsumer, startAudience } from '@hoptrack/runtime';
import { observeQueueWorker, registerQueueMetrics } from '@hoptrack/runtime/queues';
import { buildChallengesApp } from './app';
import { challengesConfigSchema } from './config';
import { AUDIENCE, database, openConnections } from './connections';
import { startProgressConsumers } from './consumers/progress.consumer';
import { eraseChallengeRows } from './domain/erasure';
import { exportChallenges } from './domain/export';
import { createGeneratorQueue, generatorQueueSettings, scheduleGenerator, startGeneratorWorker } from './generator/queue';

/**
 * The challenges service: daily challenges, progress and invitations; what it
 * reads and publishes is its contract in proto (PROCESS_CONTRACTS.challenges).
 * Its clock is the system's in production; the tests pass a fixed one to
 * cross midnights and time zones, and the app, the progress consumers and the
 * export part all read it.
 */
export const challengesService = defineService({
  name: 'challenges',
  configSchema: challengesConfigSchema,
  database,
  connect: ({ config, logger }) => openConnections(config, logger),
  build: ({ config, logger, metrics, clock, connections }) => buildChallengesApp({ config, logger, metrics, clock, ...connections }),
  async workers({ config, logger, metrics, parts }) {
    const settings = generatorQueueSettings(config);
    const queue = createGeneratorQueue(settings);
    await scheduleGenerator(queue, config.GENERATOR_EVERY_MS);
    // Every copy runs a worker; BullMQ hands each run of the job to one of them.
    const worker = startGeneratorWorker(settings, (at) => parts.generator.ensureAround(at), logger);
    registerQueueMetrics(metrics.registry, [queue]);
    observeQueueWorker(metrics.registry, worker, settings.name);
    return [
      { name: 'generator worker', close: () => worker.close() },
      { name: 'generator queue', close: () => queue.close() },
    ];
  },
  consumers: {
    // What challenges need from other services: people's names and privacy, friendships and blocks.
    audience: ({ config, connections, logger }) => startAudience({ bus: connections.bus, logger, db: connections.prisma, durable: config.READ_MODEL_CONSUMER, parts: AUDIENCE }),
    progress: ({ config, connections, logger, clock, parts, poke }) =>
      startProgressConsumers({ bus: connections.bus, sql: connections.sql, progress: parts.progress, durable: config.PROGRESS_CONSUMER, logger, clock, onEventsCommitted: poke }),
    // The account deletion's part here (issue 24), beside the audience consumer that removes the person from the people table.
    // Nothing outside the database: its one queue, the generator's, holds nothing of anyone.
    erasure: erasureConsumer('challenges', ({ config, connections, parts }) => ({
      db: connections.prisma,
      durable: config.READ_MODEL_CONSUMER,
      rows: (tx, userId) => eraseChallengeRows(tx, userId, parts.progress),
    })),
    // Its part of a data export (issue 24).
    export: exportConsumer('challenges', ({ config, connections, clock }) => ({ durable: config.READ_MODEL_CONSUMER, build: (userId) => exportChallenges(connections.prisma, userId, clock()) })),
  },
});
