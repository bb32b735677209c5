import type { ErasingService, EventEnvelope } from '@hoptrack/proto';
import type { Logger } from 'pino';
import type { Bus } from '../bus/connection';
import { ensureStreams } from '../bus/connection';
import { startConsumer, type RunningConsumer } from '../bus/consumer';
import { StreamPurger } from '../bus/purge';
import { publishNow } from '../bus/publish-now';
import type { SqlClient } from '../db/sql';
import { forgetAnswersNaming } from '../http/idempotency';
import { forgetEventsNaming, markErased } from './erased';

/** The services that erase: those whose process contract in proto promises an erase part. */
export { ERASING_SERVICES, type ErasingService } from '@hoptrack/proto';

export interface ErasureOptions<Tx extends SqlClient> {
  bus: Bus;
  db: { $transaction<R>(fn: (tx: Tx) => Promise<R>, options?: { timeout?: number }): Promise<R> };
  /** The service's database as plain statements, for its stream purger's queue (stream_purges; bus/purge.ts). */
  purges: SqlClient;
  /** Durable-name prefix of the service (one per deployment): the consumer is `<durable>-erasure`. */
  durable: string;
  service: ErasingService;
  logger: Logger;
  /**
   * What lives outside the database (S3 objects, Redis keys), before the rows
   * that point at it: idempotent, and run again on a retry, so a crash between
   * the two leaves nothing orphaned.
   */
  outside?: (userId: string, tx: SqlClient) => Promise<void>;
  /** The service's rows of the person (and what others left on them), in one transaction. */
  rows: (tx: Tx, userId: string) => Promise<void>;
}

/**
 * A service's part of an account deletion (issue 24): on user.deleted.v1 it
 * erases what it holds of the person, forgets its own outbox events that
 * name them (their messages queued for the service's purger, bus/purge.ts),
 * keeps a tombstone, and reports user.erased.v1 to auth, which deletes the
 * deletion's message and the reports, and finishes once every service reported.
 *
 * No inbox: everything here is a delete, so a redelivery (or a replayed
 * deletion) erases nothing more and reports again; a crash before the report
 * is a redelivery. The report goes straight to the bus (not the outbox, whose
 * rows must not name the person), de-duplicated by its msg id.
 */
export async function startErasure<Tx extends SqlClient>(options: ErasureOptions<Tx>): Promise<RunningConsumer> {
  const logger = options.logger.child({ component: 'erasure' });
  await ensureStreams(options.bus, ['USERS']);
  // The messages of the outbox rows the erasure forgot leave the streams once every consumer has them.
  const purger = new StreamPurger({ bus: options.bus, db: options.purges, logger: logger.child({ component: 'stream-purger' }) });
  purger.start();
  const consumer = await startConsumer({
    bus: options.bus,
    stream: 'USERS',
    durable: `${options.durable}-erasure`,
    logger,
    // Deleting a lived-in account's files can take a while.
    ackWaitMs: 120_000,
    handlers: {
      'user.deleted.v1': async (event, { message }) => {
        const { userId } = event.data;
        await options.db.$transaction(async (tx) => {
          await markErased(tx, userId);
          await options.outside?.(userId, tx);
          await options.rows(tx, userId);
          await forgetEventsNaming(tx, [userId]);
          // The answers kept for their Idempotency-Keys (and others' answers that name them) go too.
          await forgetAnswersNaming(tx, [userId]);
        }, { timeout: 120_000 });
        purger.poke();
        await reportErased(options.bus, event, message.seq, options.service);
        logger.info({ eventId: event.id }, 'person erased');
      },
    },
  });
  return {
    async stop() {
      await consumer.stop();
      await purger.stop();
    },
  };
}

async function reportErased(bus: Bus, deleted: EventEnvelope<'user.deleted.v1'>, deletedSeq: number, service: ErasingService): Promise<void> {
  await publishNow(bus, 'user.erased.v1', { userId: deleted.data.userId, service, deletedSeq }, `erased:${service}:${deleted.id}`, deleted.requestId);
}

/**
 * The erasure consumer as one of a service definition's consumers: the
 * definition says which database, durable and rows; the bus and the logger
 * are the service's. Only a service whose contract promises erasure may.
 */
export function erasureConsumer<X extends { connections: { bus: Bus; prisma: SqlClient }; logger: Logger }, Tx extends SqlClient>(
  service: ErasingService,
  part: (context: X) => Omit<ErasureOptions<Tx>, 'bus' | 'logger' | 'service' | 'purges'>,
): (context: X) => Promise<RunningConsumer> {
  return (context) => startErasure<Tx>({ ...part(context), bus: context.connections.bus, purges: context.connections.prisma, logger: context.logger, service });
}
