import { startErasure, type Bus, type Logger, type RunningConsumer } from '@hoptrack/runtime';
import type { Prisma, PrismaClient } from '../db';
import { eraseFromGraph } from '../domain/erasure';

/**
 * The social graph's part of an account deletion (user.deleted.v1 →
 * user.erased.v1, see eraseFromGraph). Nothing of it lives outside the
 * database. Its durable is `<READ_MODEL_CONSUMER>-erasure`, beside the audience consumer's.
 */
export function startErasureConsumer(options: { bus: Bus; prisma: PrismaClient; durable: string; logger: Logger }): Promise<RunningConsumer> {
  return startErasure<Prisma.TransactionClient>({
    bus: options.bus,
    db: options.prisma,
    durable: options.durable,
    service: 'social-graph',
    logger: options.logger,
    rows: eraseFromGraph,
  });
}
