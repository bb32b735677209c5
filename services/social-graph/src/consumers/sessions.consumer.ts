import type { EventData } from '@hoptrack/proto';
import { audienceInbox, startConsumer, type Bus, type Logger, type RunningConsumer, type SqlClient, type TransactionalSqlClient } from '@hoptrack/runtime';

/**
 * Keeps session_facts (who logged how many beers over how long, and when)
 * from the sessions service's events, for the stat tiles. Upserts and
 * deletes behind the inbox: replays change nothing. Plain SQL over the pool
 * Prisma shares (`sql`): every session created runs this, and Prisma's
 * interactive transaction cost twice the CPU of the statements themselves.
 */
export function startSessionsConsumer(options: { bus: Bus; sql: TransactionalSqlClient; durable: string; logger: Logger }): Promise<RunningConsumer> {
  const on = (tx: SqlClient | undefined): SqlClient => tx ?? options.sql;
  const upsert = async (db: SqlClient, data: EventData<'session.created.v1'>) => {
    await db.$executeRawUnsafe(
      `INSERT INTO "session_facts" ("session_id", "user_id", "beer_count", "duration_minutes", "created_at")
       VALUES ($1::uuid, $2::uuid, $3, $4, $5::timestamptz)
       ON CONFLICT ("session_id") DO UPDATE SET "user_id" = EXCLUDED."user_id", "beer_count" = EXCLUDED."beer_count",
         "duration_minutes" = EXCLUDED."duration_minutes", "created_at" = EXCLUDED."created_at"`,
      data.sessionId,
      data.userId,
      data.beerCount,
      data.duration,
      data.createdAt,
    );
  };
  return startConsumer<SqlClient>({
    bus: options.bus,
    stream: 'SESSIONS',
    durable: options.durable,
    logger: options.logger.child({ component: 'sessions-consumer' }),
    inbox: audienceInbox<SqlClient>(options.sql),
    handlers: {
      'session.created.v1': ({ data }, { tx }) => upsert(on(tx), data),
      'session.updated.v1': ({ data }, { tx }) => upsert(on(tx), data),
      'session.deleted.v1': async ({ data }, { tx }) => {
        await on(tx).$executeRawUnsafe('DELETE FROM "session_facts" WHERE "session_id" = $1::uuid', data.sessionId);
      },
    },
  });
}
