import { startAudience, type Bus, type Logger, type RunningConsumer } from '@hoptrack/runtime';
import { AUDIENCE } from '../connections';
import type { Prisma, PrismaClient } from '../db';

/** What challenges need from other services, kept by the audience module: people's names and privacy, friendships and blocks. */
export function startReadModelConsumers(options: { bus: Bus; prisma: PrismaClient; durable: string; logger: Logger }): Promise<RunningConsumer[]> {
  return startAudience<Prisma.TransactionClient>({ bus: options.bus, db: options.prisma, durable: options.durable, logger: options.logger, parts: AUDIENCE });
}
