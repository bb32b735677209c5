import { sqlInbox, startConsumer, type Bus, type Logger, type RunningConsumer } from '@hoptrack/runtime';
import type { Prisma, PrismaClient } from '../db';
import { usersRepository as users } from '../repositories/users.repository';

/**
 * Keeps the local users read model from auth's events. Idempotent twice over:
 * the inbox skips an event id already applied, and a snapshot older than the
 * stored one is ignored, so replaying the whole stream changes nothing.
 */
export function startUsersConsumer(options: { bus: Bus; prisma: PrismaClient; durable: string; logger: Logger }): Promise<RunningConsumer> {
  const apply = async (snapshot: Parameters<typeof users.applySnapshot>[1], tx: Prisma.TransactionClient | undefined) =>
    users.applySnapshot(tx ?? options.prisma, snapshot);
  return startConsumer<Prisma.TransactionClient>({
    bus: options.bus,
    stream: 'USERS',
    durable: options.durable,
    logger: options.logger.child({ component: 'users-consumer' }),
    inbox: sqlInbox<Prisma.TransactionClient>(options.prisma),
    handlers: {
      'user.registered.v1': (event, { tx }) => apply(event.data, tx),
      'user.updated.v1': (event, { tx }) => apply(event.data, tx),
    },
  });
}
