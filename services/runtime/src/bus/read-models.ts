import type { EventEnvelope, EventType, StreamName } from '@hoptrack/proto';
import type { Logger } from 'pino';
import type { SqlClient } from '../db/sql';
import type { Bus } from './connection';
import { startConsumer, type ConsumerOptions, type HandlerContext, type Inbox, type RunningConsumer } from './consumer';
import { wroteEvents } from './outbox';

/** A read-model handler: the event's data, applied inside the inbox transaction. */
export type ReadModelHandler<Tx, T extends EventType> = (data: EventEnvelope<T>['data'], tx: Tx) => Promise<void>;
export type ReadModelHandlers<Tx> = { [T in EventType]?: ReadModelHandler<Tx, T> };

export interface ReadModelOptions<Tx extends SqlClient> {
  bus: Bus;
  /** The durable's name: one per deployment and stream. */
  durable: string;
  logger: Logger;
  /** Every read model runs behind an inbox: its writes and the processed mark commit together. */
  inbox: Inbox<Tx>;
  /** The handlers of each stream read (one durable per stream; `durable` is suffixed when there are several). */
  streams: Partial<Record<StreamName, ReadModelHandlers<Tx>>>;
  /** What a consumer that missed events past its stream's age does about it (ConsumerOptions.onGap). */
  onGap?: ConsumerOptions<Tx>['onGap'];
  /** After each commit, with the events it applied (ConsumerOptions.afterCommit). */
  afterCommit?: ConsumerOptions<Tx>['afterCommit'];
}

function inTransaction<Tx, T extends EventType>(handler: ReadModelHandler<Tx, T>) {
  return (event: EventEnvelope<T>, context: HandlerContext<Tx>) => {
    if (!context.tx) throw new Error('read-model handlers run inside the inbox transaction');
    return handler(event.data, context.tx);
  };
}

function wrap<Tx>(handlers: ReadModelHandlers<Tx>) {
  const wrapped: Record<string, unknown> = {};
  for (const [type, handler] of Object.entries(handlers)) {
    wrapped[type] = inTransaction(handler as ReadModelHandler<Tx, EventType>);
  }
  return wrapped as { [T in EventType]?: (event: EventEnvelope<T>, context: HandlerContext<Tx>) => Promise<void> };
}

/**
 * Consumers that keep a service's local copies of other services' data. Each
 * event is applied once (inbox) and handlers are upserts or deletes, so
 * replays change nothing.
 */
export async function startReadModels<Tx extends SqlClient>(options: ReadModelOptions<Tx>): Promise<RunningConsumer[]> {
  const entries = Object.entries(options.streams) as Array<[StreamName, ReadModelHandlers<Tx>]>;
  return Promise.all(
    entries.map(([stream, handlers]) =>
      startConsumer<Tx>({
        bus: options.bus,
        logger: options.logger,
        inbox: options.inbox,
        stream,
        durable: entries.length === 1 ? options.durable : `${options.durable}-${stream.toLowerCase()}`,
        handlers: wrap<Tx>(handlers),
        ...(options.onGap ? { onGap: options.onGap } : {}),
        ...(options.afterCommit ? { afterCommit: options.afterCommit } : {}),
      }),
    ),
  );
}

/** A consumer's effect of one event type: its writes in the inbox transaction, and what they produced (whom they touched). */
export type Effect<Tx, T extends EventType, R> = (tx: Tx, event: EventEnvelope<T>) => Promise<R>;
export type Effects<Tx, R> = { [T in EventType]?: Effect<Tx, T, R> };

export interface EffectConsumersOptions<Tx extends SqlClient, R> {
  bus: Bus;
  /** Durable-name prefix: `<durable>-<stream>`, one durable per stream. */
  durable: string;
  logger: Logger;
  inbox: Inbox<Tx>;
  /** The effects of each stream's event types. */
  streams: Partial<Record<StreamName, Effects<Tx, R>>>;
  /** After each effect, in the same transaction, with its result: e.g. announce whose inbox changed, recompute whose progress moved. */
  then: (tx: Tx, result: R, event: EventEnvelope) => Promise<void>;
  /** After a commit in which `then` wrote events (Outbox.enqueue on its tx): poke the outbox relay. A commit that wrote none calls nothing. */
  afterCommit?: () => void;
}

/**
 * Consumers whose events each change the service's own tables and then
 * something that depends on them, all in one inbox transaction: a replayed
 * event is skipped whole, and an effect never commits without its sequel.
 */
export async function startEffectConsumers<Tx extends SqlClient, R>(options: EffectConsumersOptions<Tx, R>): Promise<RunningConsumer[]> {
  const entries = Object.entries(options.streams) as Array<[StreamName, Effects<Tx, R>]>;
  return Promise.all(
    entries.map(([stream, effects]) => {
      const handlers: Record<string, unknown> = {};
      // The events whose `then` wrote events, until the commit that applied them (a rolled-back batch's are applied again, alone).
      const wrote = new Set<string>();
      for (const [type, effect] of Object.entries(effects) as Array<[EventType, Effect<Tx, EventType, R>]>) {
        handlers[type] = async (event: EventEnvelope, context: HandlerContext<Tx>) => {
          if (!context.tx) throw new Error('effect consumers run inside the inbox transaction');
          await options.then(context.tx, await effect(context.tx, event), event);
          if (wroteEvents(context.tx)) wrote.add(event.id);
        };
      }
      const afterCommit = options.afterCommit;
      return startConsumer<Tx>({
        bus: options.bus,
        logger: options.logger.child({ stream: stream.toLowerCase() }),
        inbox: options.inbox,
        stream,
        durable: `${options.durable}-${stream.toLowerCase()}`,
        handlers: handlers as { [T in EventType]?: (event: EventEnvelope<T>, context: HandlerContext<Tx>) => Promise<void> },
        ...(afterCommit
          ? {
              afterCommit: (events: readonly EventEnvelope[]) => {
                let any = false;
                for (const event of events) any = wrote.delete(event.id) || any;
                if (any) afterCommit();
              },
            }
          : {}),
      });
    }),
  );
}
