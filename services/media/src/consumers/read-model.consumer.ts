import { blocksReadModel, sqlInbox, startReadModels, upsertNewerSnapshot, type Bus, type Logger, type RunningConsumer } from '@hoptrack/runtime';
import type { Prisma, PrismaClient } from '../db';

/**
 * The privacy read models (users' private switch, friendships, blocks) kept
 * from auth and social-graph events.
 */
export function startReadModelConsumers(options: { bus: Bus; prisma: PrismaClient; durable: string; logger: Logger }): Promise<RunningConsumer[]> {
  const unfriend = (tx: Prisma.TransactionClient, a: string, b: string) =>
    tx.friendPair.deleteMany({ where: { OR: [{ userId: a, friendId: b }, { userId: b, friendId: a }] } });
  return startReadModels<Prisma.TransactionClient>({
    ...options,
    inbox: sqlInbox<Prisma.TransactionClient>(options.prisma),
    user: (user, tx) => upsertNewerSnapshot(tx, 'users', { id: user.id, is_profile_private: user.isProfilePrivate, updated_at: new Date(user.updatedAt) }),
    social: {
      'social.friendship.accepted.v1': async (data, tx) => {
        await tx.friendPair.createMany({
          data: [
            { userId: data.requesterId, friendId: data.recipientId },
            { userId: data.recipientId, friendId: data.requesterId },
          ],
          skipDuplicates: true,
        });
      },
      'social.friendship.removed.v1': async (data, tx) => {
        await unfriend(tx, data.userId, data.friendId);
      },
      // A block ends any friendship between the two.
      'social.user.blocked.v1': async (data, tx) => {
        await unfriend(tx, data.blockerId, data.blockedId);
        await blocksReadModel['social.user.blocked.v1'](data, tx);
      },
      'social.user.unblocked.v1': blocksReadModel['social.user.unblocked.v1'],
    },
  });
}
