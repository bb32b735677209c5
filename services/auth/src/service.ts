import { defineService, exportConsumer, startConsumer, type BuildContext, type EventHandlers } from '@hoptrack/runtime';
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
    // Registrations with taken addresses are bounded: their unclaimed accounts go after 7 days (docs/decisions.md).
    unclaimedSweep: async ({ parts }) => parts.unclaimedSweep.start(),
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
    // A people read model that missed events past the streams' age asks for what changed since (issue 38, item 8).
    // A long history of changes takes a while to page through: two minutes before a redelivery.
    userChanges: (context) =>
      usersConsumer(context, context.config.CHANGES_CONSUMER, 'user-changes', {
        'user.changes.requested.v1': async (event) => void (await context.parts.accounts.reannounceSince(new Date(event.data.since), event.id)),
      }, 120_000),
    // Auth's own part of each data export (issue 24): the consumer is `<EXPORT_CONSUMER>-export`.
    export: exportConsumer('auth', ({ config, parts }) => ({ durable: config.EXPORT_CONSUMER, build: (userId) => parts.exports.part(userId) })),
    // Media's report that an export's zip is ready: the export becomes downloadable and the person is mailed.
    exportReady: (context) =>
      usersConsumer(context, context.config.EXPORT_CONSUMER, 'exports', { 'user.export.ready.v1': (event) => context.parts.exports.markReady(event.data) }),
  },
});

/** One of auth's own consumers of the USERS stream, on the service's bus, logging as `component`. */
function usersConsumer(
  { connections, logger }: Pick<BuildContext<AuthConfig, AuthConnections>, 'connections' | 'logger'>,
  durable: string,
  component: string,
  handlers: EventHandlers,
  ackWaitMs?: number,
) {
  return startConsumer({ bus: connections.bus, stream: 'USERS', durable, logger: logger.child({ component }), handlers, ...(ackWaitMs ? { ackWaitMs } : {}) });
}
