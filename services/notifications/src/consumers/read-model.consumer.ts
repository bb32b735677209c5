import { startAudience, type Bus, type Logger, type RunningConsumer } from '@hoptrack/runtime';
import { AUDIENCE } from '../connections';
import type { Prisma, PrismaClient } from '../db';

/**
 * What the inbox needs from other services, kept by the audience module:
 * actors' names and pictures, privacy, friendships, blocks, mutes; plus the
 * one extra here, the address notification mails go to.
 */
export function startReadModelConsumers(options: { bus: Bus; prisma: PrismaClient; durable: string; logger: Logger }): Promise<RunningConsumer[]> {
  return startAudience<Prisma.TransactionClient>({
    bus: options.bus,
    db: options.prisma,
    durable: options.durable,
    logger: options.logger,
    parts: AUDIENCE,
    personExtras: (user) => ({ email: user.email }),
  });
}
