import { parseEvent, streamNameFor, streamOf, subjectFor, type DeclaredPush, type EventEnvelope, type EventType, type StreamName } from '@hoptrack/proto';
import { DeliverPolicy, type ConsumerMessages } from 'nats';
import type { Bus } from '../bus/connection';
import { PULL_EXPIRES_MS } from '../bus/consumer';
import type { Logger } from '../logger';
import type { LiveHub } from './hub';

/**
 * What an event does to this instance's open streams besides the declared
 * pushes: an extension point, so that the audience module (a password
 * change, a deletion or a block ends streams) and a service (its presence)
 * add behaviour the platform does not know. A reaction that returns a
 * promise holds the same event's later reactions until it settles (the next
 * events do not wait): presence erased before the streams close.
 */
export type LiveReaction<T extends EventType = EventType> = (event: EventEnvelope<T>, hub: LiveHub) => void | Promise<void>;

/**
 * A set of reactions, by the event type they react to. Declared by type, not
 * by stream: the feed reads only the subjects of declared pushes and
 * reactions (a service pushing one kind of session event does not read
 * every like and comment of the SESSIONS stream).
 */
export type LiveReactions = { [T in EventType]?: LiveReaction<T> };

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

/** What the feed reads of one stream: the event types declared on it, and what their events do. */
export interface StreamFollowing {
  types: EventType[];
  handle: StreamHandler;
}

/**
 * What each stream's events do to this instance's open live streams: the
 * pushes every feature declares (proto LIVE_PUSHES: a message, a read, the
 * bell's count…), relayed without knowing them, then the reactions given,
 * with the event types each stream is read for. Both are looked up by the
 * event's type, gathered once here rather than on every event.
 */
export function liveHandlers(pushes: readonly DeclaredPush[], reactions: readonly LiveReactions[] = [], logger?: Logger): Map<StreamName, StreamFollowing> {
  const pushesOf = new Map<EventType, DeclaredPush[]>();
  for (const push of pushes) pushesOf.set(push.event, [...(pushesOf.get(push.event) ?? []), push]);
  const reactionsOf = new Map<EventType, LiveReaction[]>();
  for (const set of reactions) {
    for (const type of Object.keys(set) as EventType[]) {
      // Typed loosely for the loop below, which calls it only with an event of this type.
      const reaction = set[type] as LiveReaction | undefined;
      if (reaction) reactionsOf.set(type, [...(reactionsOf.get(type) ?? []), reaction]);
    }
  }
  const byStream = new Map<StreamName, EventType[]>();
  for (const type of new Set([...pushesOf.keys(), ...reactionsOf.keys()])) {
    // The stream is the type's (its subject); a type published on core NATS only (presence) comes through `subjects`.
    const stream = streamOf(type);
    if (stream) byStream.set(stream, [...(byStream.get(stream) ?? []), type]);
  }
  const handle: StreamHandler = (event, hub) => {
    for (const push of pushesOf.get(event.type) ?? []) {
      const delivery = push.delivery(event);
      if (delivery) hub.deliver(delivery.to, push.name, delivery.payload);
    }
    return inOrder(reactionsOf.get(event.type) ?? [], 0, event, hub, logger);
  };
  return new Map([...byStream].map(([stream, types]) => [stream, { types, handle }] as const));
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
    [...liveHandlers(options.pushes, options.reactions, logger)].map(async ([stream, { types, handle }]) => {
      const consumer = await bus.js.consumers.get(streamNameFor(bus.namespace, stream), {
        deliver_policy: DeliverPolicy.New,
        ...declaredFilter(bus, types),
      });
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
 * The feed's filter for a stream: the declared types only, so the server
 * skips the rest of the stream and this process never parses it (one kind of
 * session event pushed: none of the stream's likes and comments read). One
 * consumer per stream keeps the stream's order across its types; several
 * filters need NATS 2.10, so an older server (Debian's 2.9) is asked for one
 * type only, else sends the whole stream and the handlers pass over the rest.
 */
function declaredFilter(bus: Bus, types: readonly EventType[]): { filterSubjects?: string | string[] } {
  const subjects = types.map((type) => subjectFor(bus.namespace, type));
  if (subjects.length === 1) return { filterSubjects: subjects[0] ?? '' };
  const [major = 0, minor = 0] = (bus.nc.info?.version ?? '0.0').split('.').map(Number);
  return major > 2 || (major === 2 && minor >= 10) ? { filterSubjects: subjects } : {};
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
