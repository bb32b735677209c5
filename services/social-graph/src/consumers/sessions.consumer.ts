import { audienceInbox, startConsumer, type Bus, type Logger, type RunningConsumer, type SqlClient, type TransactionalSqlClient } from '@hoptrack/runtime';
import { sessionFactsRepository as sessionFacts } from '../repositories/session-facts.repository';

/**
 * Keeps session_facts (who logged how many beers over how long, and when)
 * from the sessions service's events, for the stat tiles. Upserts and
 * deletes behind the inbox: replays change nothing. Plain SQL over the pool
 * Prisma shares (`sql`): every session created runs this, and Prisma's
 * interactive transaction cost twice the CPU of the statements themselves.
 */
export function startSessionsConsumer(options: { bus: Bus; sql: TransactionalSqlClient; durable: string; logger: Logger }): Promise<RunningConsumer> {
  const on = (tx: SqlClient | undefined): SqlClient => tx ?? options.sql;
  return startConsumer<SqlClient>({
    bus: options.bus,
    stream: 'SESSIONS',
    durable: options.durable,
    logger: options.logger.child({ component: 'sessions-consumer' }),
    inbox: audienceInbox<SqlClient>(options.sql),
    handlers: {
      'session.created.v1': ({ data }, { tx }) => sessionFacts.upsert(on(tx), data),
      'session.updated.v1': ({ data }, { tx }) => sessionFacts.upsert(on(tx), data),
      'session.deleted.v1': ({ data }, { tx }) => sessionFacts.deleteBySession(on(tx), data.sessionId),
    },
  });
}
