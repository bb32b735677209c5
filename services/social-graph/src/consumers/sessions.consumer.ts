import type { EventData } from '@hoptrack/proto';
import { sqlInbox, startConsumer, type Bus, type Logger, type RunningConsumer } from '@hoptrack/runtime';
import type { Db, Prisma, PrismaClient } from '../db';

/**
 * Keeps session_facts (who logged how many beers over how long, and when)
 * from the sessions service's events, for the stat tiles. Upserts and
 * deletes behind the inbox: replays change nothing.
 */
export function startSessionsConsumer(options: { bus: Bus; prisma: PrismaClient; durable: string; logger: Logger }): Promise<RunningConsumer> {
  const on = (tx: Prisma.TransactionClient | undefined): Db => tx ?? options.prisma;
  const upsert = async (db: Db, data: EventData<'session.created.v1'>) => {
    const facts = { userId: data.userId, beerCount: data.beerCount, durationMinutes: data.duration, createdAt: new Date(data.createdAt) };
    await db.sessionFact.upsert({ where: { sessionId: data.sessionId }, create: { sessionId: data.sessionId, ...facts }, update: facts });
  };
  return startConsumer<Prisma.TransactionClient>({
    bus: options.bus,
    stream: 'SESSIONS',
    durable: options.durable,
    logger: options.logger.child({ component: 'sessions-consumer' }),
    inbox: sqlInbox<Prisma.TransactionClient>(options.prisma),
    handlers: {
      'session.created.v1': ({ data }, { tx }) => upsert(on(tx), data),
      'session.updated.v1': ({ data }, { tx }) => upsert(on(tx), data),
      'session.deleted.v1': async ({ data }, { tx }) => {
        await on(tx).sessionFact.deleteMany({ where: { sessionId: data.sessionId } });
      },
    },
  });
}
