import { blocksReadModel, personColumns, sqlInbox, startReadModels, upsertNewerSnapshot, type Bus, type Logger, type RunningConsumer } from '@hoptrack/runtime';
import type { Prisma, PrismaClient } from '../db';

/**
 * What sessions needs from other services, kept from their events: users'
 * display data and private switch (auth), and the graph (social-graph): who
 * follows whom and who are friends, blocks, mutes. A request makes the
 * requester follow the recipient; acceptance makes them friends both ways.
 */
export function startReadModelConsumers(options: { bus: Bus; prisma: PrismaClient; durable: string; logger: Logger }): Promise<RunningConsumer[]> {
  const unfollowBoth = (tx: Prisma.TransactionClient, a: string, b: string) =>
    tx.follow.deleteMany({ where: { OR: [{ followerId: a, followeeId: b }, { followerId: b, followeeId: a }] } });
  return startReadModels<Prisma.TransactionClient>({
    ...options,
    inbox: sqlInbox<Prisma.TransactionClient>(options.prisma),
    user: (user, tx) =>
      upsertNewerSnapshot(tx, 'users', { ...personColumns(user), avatar: user.avatar, is_profile_private: user.isProfilePrivate }),
    social: {
      'social.friendship.requested.v1': async (data, tx) => {
        await tx.follow.createMany({ data: [{ followerId: data.requesterId, followeeId: data.recipientId }], skipDuplicates: true });
      },
      'social.friendship.accepted.v1': async (data, tx) => {
        for (const [followerId, followeeId] of [
          [data.requesterId, data.recipientId],
          [data.recipientId, data.requesterId],
        ] as const) {
          await tx.follow.upsert({
            where: { followerId_followeeId: { followerId, followeeId } },
            create: { followerId, followeeId, isFriend: true },
            update: { isFriend: true },
          });
        }
      },
      'social.friendship.rejected.v1': async (data, tx) => {
        await tx.follow.deleteMany({ where: { followerId: data.requesterId, followeeId: data.recipientId, isFriend: false } });
      },
      'social.friendship.removed.v1': async (data, tx) => {
        await unfollowBoth(tx, data.userId, data.friendId);
      },
      'social.user.blocked.v1': async (data, tx) => {
        await unfollowBoth(tx, data.blockerId, data.blockedId);
        await blocksReadModel['social.user.blocked.v1'](data, tx);
      },
      'social.user.unblocked.v1': blocksReadModel['social.user.unblocked.v1'],
      'social.friend.muted.v1': async (data, tx) => {
        await tx.mute.createMany({ data: [{ userId: data.userId, mutedId: data.friendId }], skipDuplicates: true });
      },
      'social.friend.unmuted.v1': async (data, tx) => {
        await tx.mute.deleteMany({ where: { userId: data.userId, mutedId: data.friendId } });
      },
    },
  });
}
