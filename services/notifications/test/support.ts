import { randomUUID } from 'node:crypto';
import { subjectFor, type EventData, type EventEnvelope, type EventType, type UserSnapshot } from '@hoptrack/proto';
import { personById } from '@hoptrack/runtime';
import { consumersSettled, injectClients, type InjectClient, eventually, publishEvent, readEvents, startService, testDatabaseUrl, testUserSnapshot, truncate } from '@hoptrack/testing';
import { startMailCatcher, type MailCatcher } from '@hoptrack/testing/mail';
import type { NotificationsApp } from '../src/app';
import type { NotificationsConfig } from '../src/config';
import type { NotificationsConnections } from '../src/connections';
import { createMailQueue, mailQueueSettings } from '../src/mail/queue';
import { notificationsService } from '../src/service';

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
  /** Waits until every consumer started (read models and inbox, and any other asked for) has nothing pending. */
  settle(): Promise<void>;
  /** The SMTP catcher the service mails to. */
  mail: MailCatcher;
  /** The `notification.changed.v1` events published so far, after relaying what is pending. */
  changes(): Promise<Array<EventEnvelope<'notification.changed.v1'>>>;
  close(): Promise<void>;
}

/**
 * The notifications service from its definition (the one production runs)
 * in-process against real Postgres, NATS and Redis: API, outbox relay, mail
 * worker, and the consumers named (the read models' and the inbox's by
 * default). Its tables start empty; its mail goes to a catcher.
 */
export async function startTestNotifications(
  overrides: Record<string, string> = {},
  options: { consumers?: ReadonlyArray<keyof NonNullable<typeof notificationsService.consumers>> } = {},
): Promise<TestNotifications> {
  const mail = await startMailCatcher();
  const service = await startService(notificationsService, {
    env: {
      DATABASE_URL: databaseUrl,
      SMTP_URL: mail.smtpUrl,
      PUBLIC_WEB_URL: 'http://web.test',
      // A short window: the tests wait for the mail, never for a fixed time.
      MAIL_BATCH_MS: '500',
      ...overrides,
    },
    consumers: options.consumers ?? ['audience', 'inbox'],
    async prepare() {
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
    },
  });
  const { config, connections, parts } = service;
  const as = await injectClients(parts.app);
  // Every durable the service started (startConsumer registers each on the bus).
  const settle = () => consumersSettled(connections.bus, connections.bus.consumers);
  const known = new Map<string, Partial<Omit<UserSnapshot, 'id' | 'updatedAt'>>>();
  let clock = Date.now();
  /** Each snapshot later than the one before: the read model keeps the newest. */
  const nextAt = () => new Date((clock = Math.max(clock + 1, Date.now())));

  return {
    ...connections,
    ...parts,
    config,
    mail,
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
      await connections.bus.publish(subjectFor(service.namespace, envelope.type), JSON.stringify(envelope), randomUUID());
      await settle();
    },
    settle,
    async changes() {
      await parts.relay.drain();
      await eventually(async () => (await connections.prisma.outboxEvent.count({ where: { publishedAt: null } })) === 0, 'outbox relayed');
      return readEvents(connections.bus, 'NOTIFICATIONS', 'notification.changed.v1');
    },
    async close() {
      await service.close();
      await mail.close();
      // The run's queue keys in Redis go too (the service's own queue closed with its connections).
      const leftover = createMailQueue(mailQueueSettings(config));
      await leftover.obliterate({ force: true });
      await leftover.close();
    },
  };
}
