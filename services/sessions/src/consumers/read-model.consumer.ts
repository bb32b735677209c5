import { startAudience, type Bus, type Logger, type RunningConsumer } from '@hoptrack/runtime';
import { AUDIENCE } from '../connections';
import type { Prisma, PrismaClient } from '../db';

/**
 * What sessions needs from other services, kept from their events by the
 * audience module: people (names, pictures, privacy, token versions) and the
 * graph (follows and friendships, blocks, mutes). Sessions keeps no extras.
 */
export function startReadModelConsumers(options: { bus: Bus; prisma: PrismaClient; durable: string; logger: Logger }): Promise<RunningConsumer[]> {
  return startAudience<Prisma.TransactionClient>({ bus: options.bus, db: options.prisma, durable: options.durable, logger: options.logger, parts: AUDIENCE });
}
