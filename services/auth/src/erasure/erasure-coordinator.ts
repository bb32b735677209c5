import { ERASING_SERVICES, startConsumer, type Bus, type Logger, type RunningConsumer } from '@hoptrack/runtime';
import type { PrismaClient } from '../db';
import { erasuresRepository as erasures } from '../repositories/erasures.repository';
import { usersRepository as users } from '../repositories/users.repository';

/**
 * Collects the services' user.erased.v1 reports of a deletion; with the last
 * one the erasure is complete and the scrubber may clear the streams. A
 * report is an idempotent set insert, so redeliveries count once. A report
 * for an erasure already finished (a replayed deletion) opens a new record
 * under the id alone: the replay's own events name the person again, and
 * they are scrubbed the same way.
 */
export function startErasureCoordinator(options: {
  bus: Bus;
  prisma: PrismaClient;
  durable: string;
  logger: Logger;
  /** Called once an erasure is complete: the scrubber runs a pass now. */
  onComplete: () => void;
}): Promise<RunningConsumer> {
  return startConsumer({
    bus: options.bus,
    stream: 'USERS',
    durable: options.durable,
    logger: options.logger.child({ component: 'erasure-coordinator' }),
    handlers: {
      'user.erased.v1': async (event, { logger }) => {
        const { userId, service } = event.data;
        const complete = await options.prisma.$transaction(async (tx) => {
          // A live account is never erased: a stray report changes nothing.
          if (await users.exists(tx, userId)) return false;
          const row = await erasures.addReport(tx, userId, service);
          if (!row || row.completeAt || !ERASING_SERVICES.every((s) => row.reported.includes(s))) return false;
          await erasures.markComplete(tx, userId, new Date());
          return true;
        });
        if (complete) {
          logger.info('every service erased the person; scrubbing the streams');
          options.onComplete();
        }
      },
    },
  });
}
