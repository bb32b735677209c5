import { startAudience, type Bus, type Logger, type RunningConsumer } from '@hoptrack/runtime';
import { AUDIENCE } from '../connections';
import type { Prisma, PrismaClient } from '../db';

/** The old default durable of this consumer, before the audience module kept the people table. */
const RETIRED_DURABLE = 'social-graph-users';

/**
 * The people table, kept by the audience module from auth's events, with
 * social-graph's extras: the e-mail address, and whether its owner lets
 * friends see it (issue 40).
 */
export async function startUsersConsumer(options: { bus: Bus; prisma: PrismaClient; durable: string; logger: Logger }): Promise<RunningConsumer> {
  const [consumer] = await startAudience<Prisma.TransactionClient>({
    bus: options.bus,
    db: options.prisma,
    durable: options.durable,
    logger: options.logger,
    parts: AUDIENCE,
    personExtras: (user) => ({ email: user.email, show_email_to_friends: user.showEmailToFriends ?? false }),
    retired: [{ stream: 'USERS', durable: RETIRED_DURABLE }],
  });
  if (!consumer) throw new Error('the audience module started no people consumer');
  return consumer;
}
