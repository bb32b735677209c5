import { defineService, exportConsumer, startConsumer, type BuildContext } from '@hoptrack/runtime';
import { buildAuthApp } from './app';
import { authConfigSchema, type AuthConfig } from './config';
import { database, openConnections, type AuthConnections } from './connections';
import type { Mailer } from './domain/mailer';
import { startErasureCoordinator } from './erasure/erasure-coordinator';

/** The auth service's parts from its connections; a test may bring its own mailer (SMTP as slow as it likes). */
export async function buildAuth({ connections, ...context }: BuildContext<AuthConfig, AuthConnections>, mailer?: Mailer) {
  const built = await buildAuthApp({ ...context, ...connections, mailer });
  // A deployment may leave relaying to other replicas (OUTBOX_RELAY=off): then this one never starts it.
  return { ...built, relay: context.config.OUTBOX_RELAY === 'on' ? built.relay : undefined };
}

/** The auth service: accounts, tokens, erasure and export coordination; what it reads and publishes is its contract in proto (PROCESS_CONTRACTS.auth). */
export const authService = defineService({
  name: 'auth',
  configSchema: authConfigSchema,
  database,
  connect: ({ config, logger }) => openConnections(config, logger),
  build: (context) => buildAuth(context),
  consumers: {
    // The mail relay and the erasure scrubber are pollers of auth's own tables, not bus consumers. They run in
    // every replica (rows are claimed with SKIP LOCKED) and, as consumers, start once the port is open and stop before the outbox relay.
    mail: async ({ parts }) => parts.mail.start(),
    scrubber: async ({ parts }) => parts.scrubber.start(),
    // The services' erasure reports (issue 24): the last one of the second pass (issue 38) completes an erasure and wakes the scrubber.
    erasureReports: ({ config, connections, logger, parts, clock }) =>
      startErasureCoordinator({
        bus: connections.bus,
        prisma: connections.prisma,
        durable: config.ERASURE_CONSUMER,
        logger,
        onComplete: () => parts.scrubber.poke(),
        resweep: config.ERASURE_RESWEEP_MS > 0,
        clock,
      }),
    // Auth's own part of each data export (issue 24): the consumer is `<EXPORT_CONSUMER>-export`.
    export: exportConsumer('auth', ({ config, parts }) => ({ durable: config.EXPORT_CONSUMER, build: (userId) => parts.exports.part(userId) })),
    // Media's report that an export's zip is ready: the export becomes downloadable and the person is mailed.
    exportReady: ({ config, connections, logger, parts }) =>
      startConsumer({
        bus: connections.bus,
        stream: 'USERS',
        durable: config.EXPORT_CONSUMER,
        logger: logger.child({ component: 'exports' }),
        handlers: { 'user.export.ready.v1': (event) => parts.exports.markReady(event.data) },
      }),
  },
});
