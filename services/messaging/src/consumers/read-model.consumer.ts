import { blocksReadModel, personColumns, sqlInbox, startReadModels, upsertNewerSnapshot, type Bus, type Logger, type RunningConsumer } from '@hoptrack/runtime';
import type { Prisma, PrismaClient } from '../db';

/**
 * What messaging needs from other services, kept from their events: users'
 * display data, allow-DM switch and token version (auth), and blocks
 * (social-graph).
 * Friendship plays no part: anyone may message anyone who allows it.
 */
export function startReadModelConsumers(options: { bus: Bus; prisma: PrismaClient; durable: string; logger: Logger }): Promise<RunningConsumer[]> {
  return startReadModels<Prisma.TransactionClient>({
    ...options,
    inbox: sqlInbox<Prisma.TransactionClient>(options.prisma),
    user: (user, tx) =>
      upsertNewerSnapshot(tx, 'users', {
        ...personColumns(user),
        avatar: user.avatar,
        allow_direct_messages: user.allowDirectMessages,
        token_version: user.tokenVersion,
      }),
    social: blocksReadModel,
  });
}
