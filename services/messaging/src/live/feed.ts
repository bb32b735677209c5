import { parseEvent, streamNameFor, type EventData, type EventEnvelope, type LiveMessageEvent, type LiveReadEvent, type StreamName, type UserSnapshot } from '@hoptrack/proto';
import type { Bus, Logger } from '@hoptrack/runtime';
import { DeliverPolicy, type ConsumerMessages } from 'nats';
import { presenceSubject, type Presence } from '../presence/presence';
import type { LiveHub } from './hub';

/** What a reaction may act on: this instance's streams and its presence. */
interface FeedTargets {
  hub: LiveHub;
  presence: Presence;
}

export interface RunningLiveFeed {
  stop(): Promise<void>;
}

/** What each stream's events do to this instance's open live streams. */
const reactions: Partial<Record<StreamName, (event: EventEnvelope, targets: FeedTargets) => void>> = {
  MESSAGES(event, { hub }) {
    if (event.type === 'message.sent.v1') {
      const data = event.data as LiveMessageEvent;
      hub.deliver([data.senderId, data.recipientId], 'message', data);
    } else if (event.type === 'message.read.v1') {
      const data = event.data as LiveReadEvent;
      hub.deliver([data.readerId, data.senderId], 'read', data);
    }
  },
  // The notifications service's inbox changed: the bell shows the new count at once, on every tab.
  NOTIFICATIONS(event, { hub }) {
    if (event.type === 'notification.changed.v1') {
      const { userId, unreadCount } = event.data as EventData<'notification.changed.v1'>;
      hub.deliver([userId], 'notifications', { unreadCount });
    }
  },
  // A password reset bumps the token version: streams opened with an older token close.
  // Show Online Status switched: the friends' dots follow at once (one instance announces it).
  USERS(event, { hub, presence }) {
    // The account is gone (its tokens are refused from now on): its streams close and its presence goes.
    if (event.type === 'user.deleted.v1') {
      const { userId } = event.data as EventData<'user.deleted.v1'>;
      void presence.erased(userId).then(() => hub.disconnect([userId]));
    } else if (event.type === 'user.updated.v1') {
      const user = event.data as UserSnapshot;
      hub.revoke(user.id, user.tokenVersion);
      void presence.snapshot(user);
    }
  },
  // A block ends both people's streams; their clients reconnect and refetch without each other.
  SOCIAL(event, { hub }) {
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
export async function startLiveFeed(options: { bus: Bus; hub: LiveHub; presence: Presence; logger: Logger }): Promise<RunningLiveFeed> {
  const { bus, hub, presence } = options;
  const targets: FeedTargets = { hub, presence };
  const logger = options.logger.child({ component: 'live-feed' });
  const running = await Promise.all(
    (Object.entries(reactions) as Array<[StreamName, (event: EventEnvelope, targets: FeedTargets) => void]>).map(async ([stream, react]) => {
      const consumer = await bus.js.consumers.get(streamNameFor(bus.namespace, stream), { deliver_policy: DeliverPolicy.New });
      const messages: ConsumerMessages = await consumer.consume();
      const loop = (async () => {
        for await (const msg of messages) {
          try {
            react(parseEvent(msg.json()), targets);
          } catch (err) {
            logger.error({ err, subject: msg.subject, seq: msg.seq }, 'unreadable live event skipped');
          }
        }
      })();
      return { messages, loop };
    }),
  );
  const presenceFeed = await followPresence(bus, hub, logger);
  return {
    async stop() {
      await presenceFeed.stop();
      for (const { messages, loop } of running) {
        await messages.close();
        await loop;
      }
    },
  };
}

/**
 * Presence changes come on core NATS, not a stream (they are worth nothing a
 * minute later): every instance hears each one and writes it to the open
 * streams of its audience. One missed while an instance was away is made good
 * by the client's refetch on `ready`.
 */
async function followPresence(bus: Bus, hub: LiveHub, logger: Logger): Promise<RunningLiveFeed> {
  const subscription = bus.nc.subscribe(presenceSubject(bus.namespace));
  // The server has the subscription before any stream can say `ready`.
  await bus.nc.flush();
  const loop = (async () => {
    for await (const msg of subscription) {
      try {
        const event = parseEvent(msg.json());
        if (event.type !== 'presence.changed.v1') continue;
        const { audience, ...presence } = event.data as EventData<'presence.changed.v1'>;
        hub.deliver(audience, 'presence', presence);
      } catch (err) {
        logger.error({ err, subject: msg.subject }, 'unreadable presence event skipped');
      }
    }
  })();
  return {
    async stop() {
      subscription.unsubscribe();
      await loop;
    },
  };
}
