import { LIVE_PUSHES, parseEvent, streamNameFor, type DeclaredPush, type EventData, type EventEnvelope, type StreamName, type UserSnapshot } from '@hoptrack/proto';
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

/**
 * What the hub does itself, to the streams as such (not pushes): a password
 * change closes the streams opened with an older token, a deletion or a
 * block ends them, a changed Show Online Status moves the friends' dots.
 */
const streamReactions: Partial<Record<StreamName, (event: EventEnvelope, targets: FeedTargets) => void>> = {
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
 * What each stream's events do to this instance's open live streams: the
 * pushes every feature declares (proto LIVE_PUSHES: a message, a read, the
 * bell's count…), relayed without knowing them, and the hub's own reactions.
 */
export function reactionsOf(pushes: readonly DeclaredPush[]): Map<StreamName, (event: EventEnvelope, targets: FeedTargets) => void> {
  const streams = new Set<StreamName>([...pushes.map((push) => push.stream), ...(Object.keys(streamReactions) as StreamName[])]);
  return new Map(
    [...streams].map((stream) => {
      const relayed = pushes.filter((push) => push.stream === stream);
      const own = streamReactions[stream];
      return [
        stream,
        (event: EventEnvelope, targets: FeedTargets) => {
          for (const push of relayed) {
            const delivery = push.delivery(event);
            if (delivery) targets.hub.deliver(delivery.to, push.name, delivery.payload);
          }
          own?.(event, targets);
        },
      ] as const;
    }),
  );
}

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
    [...reactionsOf(LIVE_PUSHES)].map(async ([stream, react]) => {
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
