import type { UserSnapshot } from '@hoptrack/proto';
import { sqlInbox, startConsumer, upsertNewerSnapshot, type Bus, type Logger, type RunningConsumer } from '@hoptrack/runtime';
import type { Db, Prisma, PrismaClient } from '../db';

/**
 * The privacy read models (users' private switch, friendships, blocks) kept
 * from auth and social-graph events. Each event is applied once (inbox), and
 * every handler is an upsert or a delete, so replays change nothing.
 */
export async function startReadModelConsumers(options: {
  bus: Bus;
  prisma: PrismaClient;
  durable: string;
  logger: Logger;
}): Promise<RunningConsumer[]> {
  const { bus, prisma } = options;
  const logger = options.logger.child({ component: 'read-model' });
  const inbox = sqlInbox<Prisma.TransactionClient>(prisma);
  const on = (tx: Prisma.TransactionClient | undefined): Db => tx ?? prisma;

  const applyUser = (db: Db, user: UserSnapshot) =>
    upsertNewerSnapshot(db, 'users', { id: user.id, is_profile_private: user.isProfilePrivate, updated_at: new Date(user.updatedAt) });
  const unfriend = (db: Db, a: string, b: string) =>
    db.friendPair.deleteMany({ where: { OR: [{ userId: a, friendId: b }, { userId: b, friendId: a }] } });

  return Promise.all([
    startConsumer<Prisma.TransactionClient>({
      bus,
      stream: 'USERS',
      durable: `${options.durable}-users`,
      logger,
      inbox,
      handlers: {
        'user.registered.v1': (event, { tx }) => applyUser(on(tx), event.data),
        'user.updated.v1': (event, { tx }) => applyUser(on(tx), event.data),
      },
    }),
    startConsumer<Prisma.TransactionClient>({
      bus,
      stream: 'SOCIAL',
      durable: `${options.durable}-social`,
      logger,
      inbox,
      handlers: {
        'social.friendship.accepted.v1': async ({ data }, { tx }) => {
          await on(tx).friendPair.createMany({
            data: [
              { userId: data.requesterId, friendId: data.recipientId },
              { userId: data.recipientId, friendId: data.requesterId },
            ],
            skipDuplicates: true,
          });
        },
        'social.friendship.removed.v1': async ({ data }, { tx }) => {
          await unfriend(on(tx), data.userId, data.friendId);
        },
        'social.user.blocked.v1': async ({ data }, { tx }) => {
          await unfriend(on(tx), data.blockerId, data.blockedId);
          await on(tx).block.createMany({ data: [{ blockerId: data.blockerId, blockedId: data.blockedId }], skipDuplicates: true });
        },
        'social.user.unblocked.v1': async ({ data }, { tx }) => {
          await on(tx).block.deleteMany({ where: { blockerId: data.blockerId, blockedId: data.blockedId } });
        },
      },
    }),
  ]);
}
