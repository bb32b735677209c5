import { randomUUID } from 'node:crypto';
import { subjectFor, type EventData, type EventEnvelope, type EventType, type StreamName, type UserSnapshot } from '@hoptrack/proto';
import { audienceDurables, createMetrics, deleteStreams, personById, type RunningConsumer } from '@hoptrack/runtime';
import { consumersSettled, injectClients, type InjectClient, eventually, memoryLogger, publishEvent, readEvents, testDatabaseUrl, testNamespace, testUserSnapshot, truncate } from '@hoptrack/testing';
import { buildNotificationsApp, type NotificationsApp } from '../src/app';
import { notificationsConfigSchema, type NotificationsConfig } from '../src/config';
import { openConnections, type NotificationsConnections } from '../src/connections';
import { startNotificationConsumers } from '../src/consumers/events.consumer';
import { startReadModelConsumers } from '../src/consumers/read-model.consumer';
import { createMailQueue, mailQueueSettings, startMailWorker } from '../src/mail/queue';
import { startMailCatcher, type MailCatcher } from '@hoptrack/testing/mail';
import type { Queue } from 'bullmq';
import type { DigestJob } from '../src/mail/digests';

export const databaseUrl = testDatabaseUrl('notifications');

export type Client = InjectClient;

export interface TestNotifications extends NotificationsConnections, NotificationsApp {
  config: NotificationsConfig;
  /** A person the read model knows (public profile unless told), with a client. */
  user(overrides?: Partial<Omit<UserSnapshot, 'id' | 'updatedAt'>>): Promise<Client>;
  /** Re-announces a person with changes (a later snapshot) and waits until it is applied. */
  updateUser(client: Client, overrides: Partial<Omit<UserSnapshot, 'id' | 'updatedAt'>>): Promise<void>;
  as(userId: string): Promise<Client>;
  /** Publishes an event as its owning service would, and waits until every consumer has applied it. */
  publish<T extends EventType>(type: T, data: EventData<T>): Promise<EventEnvelope<T>>;
  /** Publishes an exact envelope again (a redelivery or a replay). */
  republish(envelope: EventEnvelope): Promise<void>;
  /** Waits until every consumer (read models and inbox) has nothing pending. */
  settle(): Promise<void>;
  /** The SMTP catcher the service mails to. */
  mail: MailCatcher;
  /** The digests' queue: a test promotes a person's delayed job instead of waiting out the window. */
  mailQueue: Queue<DigestJob>;
  /** The `notification.changed.v1` events published so far, after relaying what is pending. */
  changes(): Promise<Array<EventEnvelope<'notification.changed.v1'>>>;
  close(): Promise<void>;
}

const INBOX_STREAMS: readonly StreamName[] = ['SOCIAL', 'SESSIONS', 'MESSAGES', 'CHALLENGES'];

/** The notifications service in-process against real Postgres and NATS: API, outbox relay, read models and inbox consumers. */
export async function startTestNotifications(overrides: Record<string, string> = {}): Promise<TestNotifications> {
  const namespace = testNamespace('notifications');
  const mail = await startMailCatcher();
  const config = notificationsConfigSchema.parse({
    NODE_ENV: 'test',
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    BUS_NAMESPACE: namespace,
    DATABASE_URL: databaseUrl,
    OUTBOX_POLL_MS: '100',
    READ_MODEL_CONSUMER: `rm-${namespace}`,
    INBOX_CONSUMER: `inbox-${namespace}`,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    SMTP_URL: mail.smtpUrl,
    PUBLIC_WEB_URL: 'http://web.test',
    // A short window: the tests wait for the mail, never for a fixed time.
    MAIL_BATCH_MS: '500',
    ...overrides,
  });
  const { logger } = memoryLogger('notifications');
  const connections = await openConnections(config, logger);
  await truncate(databaseUrl, [
    'notification_actors',
    'notifications',
    'notification_settings',
    'session_refs',
    'session_commenters',
    'challenge_refs',
    'pending_mails',
    'users',
    'follows',
    'blocks',
    'mutes',
    'outbox',
    'processed_events',
  ]);
  const mailSettings = mailQueueSettings(config);
  const mailQueue = createMailQueue(mailSettings);
  const built = buildNotificationsApp({ config, logger, metrics: createMetrics('notifications'), mailQueue, ...connections });
  const mailWorker = startMailWorker(mailSettings, (userId) => built.digests.send(connections.prisma, userId), logger);
  await built.app.ready();
  built.relay.start();
  const consumers: RunningConsumer[] = [
    ...(await startReadModelConsumers({ bus: connections.bus, prisma: connections.prisma, durable: config.READ_MODEL_CONSUMER, logger })),
    ...(await startNotificationConsumers({
      bus: connections.bus,
      sql: connections.sql,
      outbox: built.outbox,
      durable: config.INBOX_CONSUMER,
      logger,
      onEventsCommitted: () => built.relay.poke(),
      onAdded: (tx, entryId, contribution) => built.digests.remember(tx, entryId, contribution),
    })),
  ];
  const as = await injectClients(built.app);
  const durables: Array<{ stream: StreamName; durable: string }> = [
    ...Object.values(audienceDurables(config.READ_MODEL_CONSUMER)),
    ...INBOX_STREAMS.map((stream) => ({ stream, durable: `${config.INBOX_CONSUMER}-${stream.toLowerCase()}` })),
  ];
  const settle = () => consumersSettled(connections.bus, durables);
  const known = new Map<string, Partial<Omit<UserSnapshot, 'id' | 'updatedAt'>>>();
  let clock = Date.now();
  /** Each snapshot later than the one before: the read model keeps the newest. */
  const nextAt = () => new Date((clock = Math.max(clock + 1, Date.now())));

  return {
    ...connections,
    ...built,
    config,
    mail,
    mailQueue,
    as,
    async user(overrides = {}) {
      const id = randomUUID();
      known.set(id, overrides);
      await publishEvent(connections.bus, 'user.registered.v1', testUserSnapshot(id, { ...overrides, updatedAt: nextAt() }));
      await eventually(async () => (await personById(connections.prisma, id)) !== null, 'user in the read model');
      return as(id);
    },
    async updateUser(client, overrides) {
      const next = { ...known.get(client.id), ...overrides };
      known.set(client.id, next);
      await publishEvent(connections.bus, 'user.updated.v1', testUserSnapshot(client.id, { ...next, updatedAt: nextAt() }));
      await settle();
    },
    async publish(type, data) {
      const envelope = await publishEvent(connections.bus, type, data);
      await settle();
      return envelope;
    },
    async republish(envelope) {
      // A new message id for JetStream (its own de-duplication would drop it), the same event id for our inbox.
      await connections.bus.publish(subjectFor(namespace, envelope.type), JSON.stringify(envelope), randomUUID());
      await settle();
    },
    settle,
    async changes() {
      await built.relay.drain();
      await eventually(async () => (await connections.prisma.outboxEvent.count({ where: { publishedAt: null } })) === 0, 'outbox relayed');
      return readEvents(connections.bus, 'NOTIFICATIONS', 'notification.changed.v1');
    },
    async close() {
      await Promise.all(consumers.map((c) => c.stop()));
      await built.app.close();
      await built.relay.stop();
      await mailWorker.close();
      await mailQueue.obliterate({ force: true });
      await mailQueue.close();
      await mail.close();
      await deleteStreams(connections.bus);
      await connections.close();
    },
  };
}
