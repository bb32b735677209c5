import { notificationsApi } from '@hoptrack/proto';
import { audienceAuth, createServer, mountRoutes, Outbox, OutboxRelay, tokenVerifierFor, type Logger, type ServiceApp, type ServiceMetrics } from '@hoptrack/runtime';
import type { NotificationsConfig } from './config';
import type { NotificationsConnections } from './connections';
import { Notifications } from './domain/notifications';
import { MailDigests } from './mail/digests';
import { UnsubscribeTokens } from './mail/unsubscribe';
import { notificationsHandlers } from './routes/handlers';
import nodemailer from 'nodemailer';

export interface NotificationsDepsIn extends NotificationsConnections {
  config: NotificationsConfig;
  logger: Logger;
  metrics: ServiceMetrics;
}

export interface NotificationsApp {
  app: ServiceApp;
  relay: OutboxRelay;
  outbox: Outbox;
  notifications: Notifications;
  digests: MailDigests;
}

export function buildNotificationsApp(deps: NotificationsDepsIn): NotificationsApp {
  const { config, prisma, reads, bus, logger } = deps;
  const relay = new OutboxRelay({ db: deps.sql, bus, logger: logger.child({ component: 'outbox-relay' }), pollMs: config.OUTBOX_POLL_MS });
  const outbox = new Outbox(config.BUS_NAMESPACE);
  const notifications = new Notifications({ prisma, reads, outbox, onEventsCommitted: () => relay.poke() });
  const tokens = new UnsubscribeTokens(config.UNSUBSCRIBE_SECRET);
  const digests = new MailDigests({
    queue: deps.mailQueue,
    batchMs: config.MAIL_BATCH_MS,
    transport: config.SMTP_URL ? nodemailer.createTransport(config.SMTP_URL) : null,
    from: config.MAIL_FROM,
    publicWebUrl: config.PUBLIC_WEB_URL,
    tokens,
    logger: logger.child({ component: 'mail' }),
  });
  const app = createServer({
    logger,
    metrics: deps.metrics,
    trustProxy: config.TRUST_PROXY,
  });
  mountRoutes(app, notificationsApi, notificationsHandlers(notifications, tokens), { authenticate: audienceAuth(tokenVerifierFor(config), prisma), db: prisma });
  return { app, relay, outbox, notifications, digests };
}
