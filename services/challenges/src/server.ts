import { eventDrivenService, runService, startExportContributor } from '@hoptrack/runtime';
import { registerQueueMetrics, observeQueueWorker } from '@hoptrack/runtime/queues';
import { buildChallengesApp } from './app';
import { challengesConfigSchema } from './config';
import { openConnections } from './connections';
import { startErasureConsumer } from './consumers/erasure.consumer';
import { startProgressConsumers } from './consumers/progress.consumer';
import { startReadModelConsumers } from './consumers/read-model.consumer';
import { exportChallenges } from './domain/export';
import { createGeneratorQueue, generatorQueueSettings, scheduleGenerator, startGeneratorWorker } from './generator/queue';

await runService({
  name: 'challenges',
  configSchema: challengesConfigSchema,
  async build({ config, logger, metrics }) {
    const connections = await openConnections(config, logger);
    const { app, relay, progress, generator } = buildChallengesApp({ config, logger, metrics, ...connections });
    const settings = generatorQueueSettings(config);
    const queue = createGeneratorQueue(settings);
    await scheduleGenerator(queue, config.GENERATOR_EVERY_MS);
    // Every copy runs a worker; BullMQ hands each run of the job to one of them.
    const worker = startGeneratorWorker(settings, (at) => generator.ensureAround(at), logger);
    registerQueueMetrics(metrics.registry, [queue]);
    observeQueueWorker(metrics.registry, worker, settings.name);
    return eventDrivenService({
      app,
      metrics,
      connections,
      relay,
      consumers: async () => [
        ...(await startReadModelConsumers({ bus: connections.bus, prisma: connections.prisma, durable: config.READ_MODEL_CONSUMER, logger })),
        ...(await startProgressConsumers({ bus: connections.bus, sql: connections.sql, progress, durable: config.PROGRESS_CONSUMER, logger, onEventsCommitted: () => relay.poke() })),
        // The account deletion's part here (issue 24), beside the audience consumer that removes the person from the people table.
        await startErasureConsumer({ bus: connections.bus, prisma: connections.prisma, progress, durable: config.READ_MODEL_CONSUMER, logger }),
        // Its part of a data export (issue 24).
        await startExportContributor({
          bus: connections.bus,
          durable: config.READ_MODEL_CONSUMER,
          service: 'challenges',
          logger,
          build: (userId) => exportChallenges(connections.prisma, userId),
        }),
      ],
      first: [
        { name: 'generator worker', close: () => worker.close() },
        { name: 'generator queue', close: () => queue.close() },
      ],
    });
  },
});
