import { messagingApi } from '@hoptrack/proto';
import { audienceAuth, createServer, LiveHub, mountRoutes, tokenVerifierFor, Outbox, OutboxRelay, type Logger, type ServiceApp, type ServiceMetrics } from '@hoptrack/runtime';
import type { MessagingConfig } from './config';
import type { MessagingConnections } from './connections';
import { Conversations } from './domain/conversations';
import { Presence } from './presence/presence';
import { presencePrefix, PresenceStore } from './presence/store';
import { messagingHandlers } from './routes/handlers';

export interface MessagingDepsIn extends MessagingConnections {
  config: MessagingConfig;
  logger: Logger;
  metrics: ServiceMetrics;
  clock?: () => Date;
}

export interface MessagingApp {
  app: ServiceApp;
  relay: OutboxRelay;
  hub: LiveHub;
  /** Started by the caller (start()) once the app is built; stopped at shutdown. */
  presence: Presence;
  conversations: Conversations;
}

export function buildMessagingApp(deps: MessagingDepsIn): MessagingApp {
  const { config, prisma, bus, logger } = deps;
  const relay = new OutboxRelay({ db: deps.sql, bus, logger: logger.child({ component: 'outbox-relay' }), pollMs: config.OUTBOX_POLL_MS });
  const clock = deps.clock ?? (() => new Date());
  const conversations = new Conversations({ prisma, outbox: new Outbox(config.BUS_NAMESPACE, clock), onEventsCommitted: () => relay.poke(), clock });
  const presence = new Presence({
    store: new PresenceStore(deps.redis, presencePrefix(config.BUS_NAMESPACE)),
    db: prisma,
    bus,
    graceMs: config.PRESENCE_GRACE_MS,
    heartbeatMs: config.PRESENCE_HEARTBEAT_MS,
    logger,
  });
  const hub = new LiveHub({
    maxConnections: config.LIVE_MAX_CONNECTIONS,
    maxPerUser: config.LIVE_MAX_PER_USER,
    heartbeatMs: config.LIVE_HEARTBEAT_MS,
    registry: deps.metrics.registry,
    // messaging_live_streams and messaging_live_events_delivered_total: the names the dashboards and the metrics test know.
    metricPrefix: 'messaging_live',
    logger: logger.child({ component: 'live' }),
    observer: presence,
  });
  const app = createServer({
    logger,
    metrics: deps.metrics,
    trustProxy: config.TRUST_PROXY,
  });
  mountRoutes(app, messagingApi, messagingHandlers({ conversations, prisma, hub, presence }), {
    authenticate: audienceAuth(tokenVerifierFor(config), prisma),
    db: prisma,
    clock,
  });
  // Open live streams would hold `app.close()` forever: end them first, clients reconnect elsewhere.
  app.addHook('preClose', async () => hub.closeAll());
  return { app, relay, hub, presence, conversations };
}
