import { parseEvent, streamNameFor, type EventData, type EventEnvelope, type LiveMessageEvent, type LiveReadEvent, type StreamName, type UserSnapshot } from '@hoptrack/proto';
import type { Bus, Logger } from '@hoptrack/runtime';
import { DeliverPolicy, type ConsumerMessages } from 'nats';
import type { LiveHub } from './hub';

export interface RunningLiveFeed {
  stop(): Promise<void>;
}

/** What each stream's events do to this instance's open live streams. */
const reactions: Partial<Record<StreamName, (event: EventEnvelope, hub: LiveHub) => void>> = {
  MESSAGES(event, hub) {
    if (event.type === 'message.sent.v1') {
      const data = event.data as LiveMessageEvent;
      hub.deliver([data.senderId, data.recipientId], 'message', data);
    } else if (event.type === 'message.read.v1') {
      const data = event.data as LiveReadEvent;
      hub.deliver([data.readerId, data.senderId], 'read', data);
    }
  },
  // The notifications service's inbox changed: the bell shows the new count at once, on every tab.
  NOTIFICATIONS(event, hub) {
    if (event.type === 'notification.changed.v1') {
      const { userId, unreadCount } = event.data as EventData<'notification.changed.v1'>;
      hub.deliver([userId], 'notifications', { unreadCount });
    }
  },
  // A password reset bumps the token version: streams opened with an older token close.
  USERS(event, hub) {
    if (event.type === 'user.updated.v1') {
      const user = event.data as UserSnapshot;
      hub.revoke(user.id, user.tokenVersion);
    }
  },
  // A block ends both people's streams; their clients reconnect and refetch without each other.
  SOCIAL(event, hub) {
    if (event.type === 'social.user.blocked.v1') {
      const { blockerId, blockedId } = event.data as { blockerId: string; blockedId: string };
      hub.disconnect([blockerId, blockedId]);
    }
  },
};

/**
 * Feeds this instance's live streams from the bus. Each instance reads every
 * event with its own ephemeral ordered consumers (no durable, no acks: a
 * live push missed while an instance was down is made good by the client's
 * refetch on reconnect), starting from now. An ordered consumer resumes at
 * its last sequence after a NATS reconnect, so nothing published meanwhile
 * is skipped.
 */
export async function startLiveFeed(options: { bus: Bus; hub: LiveHub; logger: Logger }): Promise<RunningLiveFeed> {
  const { bus, hub } = options;
  const logger = options.logger.child({ component: 'live-feed' });
  const running = await Promise.all(
    (Object.entries(reactions) as Array<[StreamName, (event: EventEnvelope, hub: LiveHub) => void]>).map(async ([stream, react]) => {
      const consumer = await bus.js.consumers.get(streamNameFor(bus.namespace, stream), { deliver_policy: DeliverPolicy.New });
      const messages: ConsumerMessages = await consumer.consume();
      const loop = (async () => {
        for await (const msg of messages) {
          try {
            react(parseEvent(msg.json()), hub);
          } catch (err) {
            logger.error({ err, subject: msg.subject, seq: msg.seq }, 'unreadable live event skipped');
          }
        }
      })();
      return { messages, loop };
    }),
  );
  return {
    async stop() {
      for (const { messages, loop } of running) {
        await messages.close();
        await loop;
      }
    },
  };
}
