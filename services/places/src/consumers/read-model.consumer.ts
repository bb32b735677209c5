import { blocksReadModel, personColumns, sqlInbox, startReadModels, upsertNewerSnapshot, type Bus, type Logger, type RunningConsumer } from '@hoptrack/runtime';
import type { Prisma, PrismaClient } from '../db';

/** What reviews need from other services: reviewers' names and pictures (auth) and blocks (social-graph). */
export function startReadModelConsumers(options: { bus: Bus; prisma: PrismaClient; durable: string; logger: Logger }): Promise<RunningConsumer[]> {
  return startReadModels<Prisma.TransactionClient>({
    ...options,
    inbox: sqlInbox<Prisma.TransactionClient>(options.prisma),
    user: (user, tx) => upsertNewerSnapshot(tx, 'users', personColumns(user)),
    social: blocksReadModel,
  });
}
