import type { EventEnvelope, EventType, UserSnapshot } from '@hoptrack/proto';
import type { Logger } from 'pino';
import type { SqlClient } from '../db/sql';
import type { Bus } from './connection';
import { startConsumer, type HandlerContext, type Inbox, type RunningConsumer } from './consumer';

/** A read-model handler: the event's data, applied inside the inbox transaction. */
export type ReadModelHandler<Tx, T extends EventType> = (data: EventEnvelope<T>['data'], tx: Tx) => Promise<void>;
export type ReadModelHandlers<Tx> = { [T in EventType]?: ReadModelHandler<Tx, T> };

export interface ReadModelOptions<Tx extends SqlClient> {
  bus: Bus;
  /** Prefix of the durable names (`<durable>-users`, `<durable>-social`); one per deployment. */
  durable: string;
  logger: Logger;
  /** Every read model runs behind an inbox: its writes and the processed mark commit together. */
  inbox: Inbox<Tx>;
  /** Applies a user snapshot (user.registered and user.updated carry the same shape). */
  user?: (user: UserSnapshot, tx: Tx) => Promise<void>;
  /** Handlers of social-graph events. */
  social?: ReadModelHandlers<Tx>;
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
 * The consumers that keep a service's local copies of other services' data
 * (users from auth, the graph from social-graph). Each event is applied once
 * (inbox) and handlers are upserts or deletes, so replays change nothing.
 */
export async function startReadModels<Tx extends SqlClient>(options: ReadModelOptions<Tx>): Promise<RunningConsumer[]> {
  const logger = options.logger.child({ component: 'read-model' });
  const common = { bus: options.bus, logger, inbox: options.inbox };
  const consumers: Array<Promise<RunningConsumer>> = [];
  if (options.user) {
    const user = options.user;
    consumers.push(
      startConsumer<Tx>({
        ...common,
        stream: 'USERS',
        durable: `${options.durable}-users`,
        handlers: wrap<Tx>({ 'user.registered.v1': (data, tx) => user(data, tx), 'user.updated.v1': (data, tx) => user(data, tx) }),
      }),
    );
  }
  if (options.social) {
    consumers.push(startConsumer<Tx>({ ...common, stream: 'SOCIAL', durable: `${options.durable}-social`, handlers: wrap(options.social) }));
  }
  return Promise.all(consumers);
}

/** The `blocks (blocker_id, blocked_id)` table every service that hides blocked people keeps. */
export const blocksReadModel = {
  'social.user.blocked.v1': (data: { blockerId: string; blockedId: string }, tx: SqlClient) =>
    tx
      .$executeRawUnsafe('INSERT INTO "blocks" ("blocker_id", "blocked_id") VALUES ($1::uuid, $2::uuid) ON CONFLICT DO NOTHING', data.blockerId, data.blockedId)
      .then(() => undefined),
  'social.user.unblocked.v1': (data: { blockerId: string; blockedId: string }, tx: SqlClient) =>
    tx
      .$executeRawUnsafe('DELETE FROM "blocks" WHERE "blocker_id" = $1::uuid AND "blocked_id" = $2::uuid', data.blockerId, data.blockedId)
      .then(() => undefined),
} satisfies ReadModelHandlers<SqlClient>;
