import type { EventEnvelope, EventType, StreamName } from '@hoptrack/proto';
import type { Logger } from 'pino';
import type { SqlClient } from '../db/sql';
import type { Bus } from './connection';
import { startConsumer, type HandlerContext, type Inbox, type RunningConsumer } from './consumer';

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
      }),
    ),
  );
}
