import { subjectFor } from '@hoptrack/proto';
import { ERASING_SERVICES, queuePurges, startConsumer, type Bus, type Logger, type RunningConsumer } from '@hoptrack/runtime';
import type { PrismaClient } from '../db';
import { erasuresRepository as erasures } from '../repositories/erasures.repository';
import { usersRepository as users } from '../repositories/users.repository';

/**
 * Collects the services' user.erased.v1 reports of a deletion. With the last
 * report of the first pass the erasure waits for its second (the scrubber
 * sends user.deleted.v1 again after the grace, issue 38); with the last of
 * the second it is complete and the scrubber may clear the streams. A
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
  /** Called once an erasure's pass is complete: the scrubber runs now (a second pass to send, or the streams to scrub). */
  onComplete: () => void;
  /** Whether a second pass follows the first (ERASURE_RESWEEP_MS > 0). */
  resweep: boolean;
  clock: () => Date;
}): Promise<RunningConsumer> {
  return startConsumer({
    bus: options.bus,
    stream: 'USERS',
    durable: options.durable,
    logger: options.logger.child({ component: 'erasure-coordinator' }),
    handlers: {
      'user.erased.v1': async (event, { logger, message }) => {
        const { userId, service, deletedSeq } = event.data;
        const complete = await options.prisma.$transaction(async (tx) => {
          // The report and the deletion it answers name the person, and no outbox row of auth's need record
          // them (a report goes straight to the bus; a deletion may be replayed from outside): both are
          // queued for the scrubber's purger, which deletes them once every consumer has them.
          await queuePurges(tx, [
            message,
            ...(deletedSeq ? [{ stream: message.stream, seq: deletedSeq, subject: subjectFor(options.bus.namespace, 'user.deleted.v1') }] : []),
          ]);
          // A live account is never erased: a stray report changes nothing.
          if (await users.exists(tx, userId)) return false;
          const row = await erasures.addReport(tx, userId, service);
          if (!row || row.completeAt || !ERASING_SERVICES.every((s) => row.reported.includes(s))) return false;
          // The first pass: the second follows the grace (the scrubber sends it). The second, or none wanted: complete.
          if (options.resweep && !row.resweepAt) {
            if (row.firstPassAt) return false;
            await erasures.markFirstPass(tx, userId, options.clock());
            return 'first pass';
          }
          await erasures.markComplete(tx, userId, options.clock());
          return 'complete';
        });
        if (complete === 'first pass') logger.info('every service erased the person; the second pass follows the grace');
        if (complete === 'complete') {
          logger.info('every service erased the person; scrubbing the streams');
          options.onComplete();
        }
      },
    },
  });
}
