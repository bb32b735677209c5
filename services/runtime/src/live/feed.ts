import { parseEvent, streamNameFor, type DeclaredPush, type EventEnvelope, type StreamName } from '@hoptrack/proto';
import { DeliverPolicy, type ConsumerMessages } from 'nats';
import type { Bus } from '../bus/connection';
import { PULL_EXPIRES_MS } from '../bus/consumer';
import type { Logger } from '../logger';
import type { LiveHub } from './hub';

/**
 * What an event of a stream does to this instance's open streams besides the
 * declared pushes: an extension point, so that the audience module (a
 * password change, a deletion or a block ends streams) and a service (its
 * presence) add behaviour the platform does not know. A reaction that returns
 * a promise holds the same event's later reactions until it settles (the
 * next events do not wait): presence erased before the streams close.
 */
export type LiveReaction = (event: EventEnvelope, hub: LiveHub) => void | Promise<void>;

/** A set of reactions, by the stream whose events they react to. */
export type LiveReactions = Partial<Record<StreamName, LiveReaction>>;

/**
 * A core-NATS subject the feed follows besides the streams: events worth
 * nothing a minute later (presence) travel there, not on a stream.
 */
export interface LiveSubject {
  subject: string;
  react(event: EventEnvelope, hub: LiveHub): void;
}

export interface LiveFeedOptions {
  bus: Bus;
  hub: LiveHub;
  /** The declared pushes (proto LIVE_PUSHES), relayed without knowing them. */
  pushes: readonly DeclaredPush[];
  /** Reaction sets, run in this order for each event, after its pushes. */
  reactions?: readonly LiveReactions[];
  subjects?: readonly LiveSubject[];
  logger: Logger;
}

export interface RunningLiveFeed {
  stop(): Promise<void>;
}

/** A stream's events turned into pushes and reactions; a promise while a reaction still holds the later ones. */
type StreamHandler = (event: EventEnvelope, hub: LiveHub) => void | Promise<void>;

/**
 * What each stream's events do to this instance's open live streams: the
 * pushes every feature declares (proto LIVE_PUSHES: a message, a read, the
 * bell's count…), relayed without knowing them, then the reactions given.
 */
export function liveHandlers(pushes: readonly DeclaredPush[], reactions: readonly LiveReactions[] = [], logger?: Logger): Map<StreamName, StreamHandler> {
  const streams = new Set<StreamName>([...pushes.map((push) => push.stream), ...reactions.flatMap((set) => Object.keys(set) as StreamName[])]);
  return new Map(
    [...streams].map((stream) => {
      const relayed = pushes.filter((push) => push.stream === stream);
      const own = reactions.flatMap((set) => set[stream] ?? []);
      return [
        stream,
        (event: EventEnvelope, hub: LiveHub) => {
          for (const push of relayed) {
            const delivery = push.delivery(event);
            if (delivery) hub.deliver(delivery.to, push.name, delivery.payload);
          }
          return inOrder(own, 0, event, hub, logger);
        },
      ] as const;
    }),
  );
}

/** Runs `reactions` from `from` on; one returning a promise holds the rest until it settles (a failure is logged, the rest still run). */
function inOrder(reactions: readonly LiveReaction[], from: number, event: EventEnvelope, hub: LiveHub, logger: Logger | undefined): void | Promise<void> {
  for (let i = from; i < reactions.length; i += 1) {
    const result = reactions[i]?.(event, hub);
    if (result instanceof Promise) {
      return result
        .catch((err: unknown) => logger?.error({ err, type: event.type, id: event.id }, 'live reaction failed'))
        .then(() => inOrder(reactions, i + 1, event, hub, logger));
    }
  }
}

/**
 * Feeds this instance's live streams from the bus. Each instance reads every
 * event with its own ephemeral ordered consumers (no durable, no acks: a
 * live push missed while an instance was down is made good by the client's
 * refetch on reconnect), starting from now. An ordered consumer resumes at
 * its last sequence after a NATS reconnect, so nothing published meanwhile
 * is skipped. Resolves once every consumer and subscription is in place:
 * started before the port opens, no stream can say `ready` before its
 * events can reach it.
 */
export async function startLiveFeed(options: LiveFeedOptions): Promise<RunningLiveFeed> {
  const { bus, hub } = options;
  const logger = options.logger.child({ component: 'live-feed' });
  const running = await Promise.all(
    [...liveHandlers(options.pushes, options.reactions, logger)].map(async ([stream, handle]) => {
      const consumer = await bus.js.consumers.get(streamNameFor(bus.namespace, stream), { deliver_policy: DeliverPolicy.New });
      const messages: ConsumerMessages = await consumer.consume({ expires: PULL_EXPIRES_MS });
      const loop = (async () => {
        for await (const msg of messages) {
          try {
            // Not awaited: a reaction waiting on Redis or Postgres holds its event's later reactions, never the next event.
            const pending = handle(parseEvent(msg.json()), hub);
            if (pending instanceof Promise) pending.catch((err: unknown) => logger.error({ err, subject: msg.subject, seq: msg.seq }, 'live reaction failed'));
          } catch (err) {
            logger.error({ err, subject: msg.subject, seq: msg.seq }, 'unreadable live event skipped');
          }
        }
      })();
      return { messages, loop };
    }),
  );
  const followed = await followSubjects(bus, hub, options.subjects ?? [], logger);
  return {
    async stop() {
      await followed.stop();
      for (const { messages, loop } of running) {
        await messages.close();
        await loop;
      }
    },
  };
}

/**
 * The core-NATS subjects: every instance hears each event and hands it to
 * its reaction. One missed while an instance was away is made good by the
 * client's refetch on `ready`.
 */
async function followSubjects(bus: Bus, hub: LiveHub, subjects: readonly LiveSubject[], logger: Logger): Promise<RunningLiveFeed> {
  const followed = subjects.map(({ subject, react }) => {
    const subscription = bus.nc.subscribe(subject);
    const loop = (async () => {
      for await (const msg of subscription) {
        try {
          react(parseEvent(msg.json()), hub);
        } catch (err) {
          logger.error({ err, subject: msg.subject }, 'unreadable live event skipped');
        }
      }
    })();
    return { subscription, loop };
  });
  // The server has the subscriptions before any stream can say `ready`.
  if (followed.length > 0) await bus.nc.flush();
  return {
    async stop() {
      for (const { subscription, loop } of followed) {
        subscription.unsubscribe();
        await loop;
      }
    },
  };
}
