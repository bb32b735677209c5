import { defineService, erasureConsumer, exportConsumer, startAudience } from '@hoptrack/runtime';
import { observeQueueWorker, registerQueueMetrics } from '@hoptrack/runtime/queues';
import { buildNotificationsApp } from './app';
import { notificationsConfigSchema } from './config';
import { AUDIENCE, database, openConnections } from './connections';
import { startNotificationConsumers } from './consumers/events.consumer';
import { eraseNotificationRows, forgetDigestJobs } from './domain/erasure';
import { exportNotifications } from './domain/export';
import { mailQueueSettings, startMailWorker } from './mail/queue';

/**
 * The notifications service: each person's inbox and their mail digests;
 * what it reads and publishes is its contract in proto
 * (PROCESS_CONTRACTS.notifications). The digests' queue is one of its
 * connections (the app queues, the erasure consumer forgets jobs).
 */
export const notificationsService = defineService({
  name: 'notifications',
  configSchema: notificationsConfigSchema,
  database,
  connect: ({ config, logger }) => openConnections(config, logger),
  build: ({ config, logger, metrics, connections }) => buildNotificationsApp({ config, logger, metrics, ...connections }),
  workers({ config, logger, metrics, connections, parts }) {
    const mail = mailQueueSettings(config);
    // The digests' worker runs in the service's own processes: each copy takes jobs, none twice.
    const mailWorker = startMailWorker(mail, (userId) => parts.digests.send(connections.prisma, userId), logger);
    registerQueueMetrics(metrics.registry, [connections.mailQueue]);
    observeQueueWorker(metrics.registry, mailWorker, mail.name);
    return [{ name: 'mail worker', close: () => mailWorker.close() }];
  },
  consumers: {
    // What the inbox needs from other services: actors' names and pictures, privacy, friendships, blocks, mutes; plus the address notification mails go to.
    audience: ({ config, connections, logger }) => startAudience({ bus: connections.bus, logger, db: connections.prisma, durable: config.READ_MODEL_CONSUMER, parts: AUDIENCE, personExtras: (user) => ({ email: user.email }) }),
    inbox: ({ config, connections, parts, logger, poke }) =>
      startNotificationConsumers({
        bus: connections.bus,
        sql: connections.sql,
        outbox: parts.outbox,
        durable: config.INBOX_CONSUMER,
        logger,
        onEventsCommitted: poke,
        onAdded: (tx, entryId, contribution) => parts.digests.remember(tx, entryId, contribution),
      }),
    // The account deletion's part here (issue 24), beside the audience consumer that removes the person from the people table:
    // the digest jobs in Redis, then the rows.
    erasure: erasureConsumer('notifications', ({ config, connections, parts }) => ({
      db: connections.prisma,
      durable: config.READ_MODEL_CONSUMER,
      outside: (userId) => forgetDigestJobs(connections.mailQueue, userId),
      rows: (tx, userId) => eraseNotificationRows(tx, userId, parts.outbox),
    })),
    // Its part of a data export (issue 24).
    export: exportConsumer('notifications', ({ config, connections }) => ({ durable: config.READ_MODEL_CONSUMER, build: (userId) => exportNotifications(connections.prisma, userId) })),
  },
});
