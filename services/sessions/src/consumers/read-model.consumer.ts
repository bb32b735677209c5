import { startAudience, type Bus, type Logger, type PeopleCache, type RunningConsumer } from '@hoptrack/runtime';
import { AUDIENCE } from '../connections';
import type { Prisma, PrismaClient } from '../db';

/**
 * What sessions needs from other services, kept from their events by the
 * audience module: people (names, pictures, privacy, token versions) and the
 * graph (follows and friendships, blocks, mutes). Sessions keeps no extras;
 * its people also live in Redis (the feed's names and pictures, every
 * request's token version), written as each snapshot is applied.
 */
export function startReadModelConsumers(options: { bus: Bus; prisma: PrismaClient; durable: string; logger: Logger; people: PeopleCache }): Promise<RunningConsumer[]> {
  return startAudience<Prisma.TransactionClient>({
    bus: options.bus,
    db: options.prisma,
    durable: options.durable,
    logger: options.logger,
    parts: AUDIENCE,
    peopleCache: options.people,
  });
}
