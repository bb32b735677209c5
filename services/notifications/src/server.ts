import { eventDrivenService, runService, startExportContributor } from '@hoptrack/runtime';
import { buildNotificationsApp } from './app';
import { notificationsConfigSchema } from './config';
import { openConnections } from './connections';
import { startErasureConsumer } from './consumers/erasure.consumer';
import { startNotificationConsumers } from './consumers/events.consumer';
import { startReadModelConsumers } from './consumers/read-model.consumer';
import { exportNotifications } from './domain/export';
import { createMailQueue, mailQueueSettings, startMailWorker } from './mail/queue';
import { registerQueueMetrics, observeQueueWorker } from '@hoptrack/runtime/queues';

await runService({
  name: 'notifications',
  configSchema: notificationsConfigSchema,
  async build({ config, logger, metrics }) {
    const connections = await openConnections(config, logger);
    const mail = mailQueueSettings(config);
    const mailQueue = createMailQueue(mail);
    const { app, relay, outbox, digests } = buildNotificationsApp({ config, logger, metrics, mailQueue, ...connections });
    // The digests' worker runs in the service's own processes: each copy takes jobs, none twice.
    const mailWorker = startMailWorker(mail, (userId) => digests.send(connections.prisma, userId), logger);
    registerQueueMetrics(metrics.registry, [mailQueue]);
    observeQueueWorker(metrics.registry, mailWorker, mail.name);
    return eventDrivenService({
      app,
      metrics,
      connections,
      relay,
      consumers: async () => [
        ...(await startReadModelConsumers({ bus: connections.bus, prisma: connections.prisma, durable: config.READ_MODEL_CONSUMER, logger })),
        ...(await startNotificationConsumers({
          bus: connections.bus,
          sql: connections.sql,
          outbox,
          durable: config.INBOX_CONSUMER,
          logger,
          onEventsCommitted: () => relay.poke(),
          onAdded: (tx, entryId, contribution) => digests.remember(tx, entryId, contribution),
        })),
        // The account deletion's part here (issue 24), beside the audience consumer that removes the person from the people table.
        await startErasureConsumer({ bus: connections.bus, prisma: connections.prisma, outbox, mailQueue, durable: config.READ_MODEL_CONSUMER, logger }),
        // Its part of a data export (issue 24).
        await startExportContributor({
          bus: connections.bus,
          durable: config.READ_MODEL_CONSUMER,
          service: 'notifications',
          logger,
          build: (userId) => exportNotifications(connections.prisma, userId),
        }),
      ],
      first: [
        { name: 'mail worker', close: () => mailWorker.close() },
        { name: 'mail queue', close: () => mailQueue.close() },
      ],
    });
  },
});
