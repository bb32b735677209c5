import { startErasure, type Bus, type Logger, type RunningConsumer } from '@hoptrack/runtime';
import type { Prisma, PrismaClient } from '../db';
import { mediaErasure } from '../domain/erasure';
import { deleteExportParts } from '../exports/assembler';
import type { ObjectStore } from '../storage/object-store';

/**
 * The media service's part of an account deletion (user.deleted.v1 →
 * user.erased.v1): the person's files and their albums and photos (see
 * mediaErasure). Its durable is `<READ_MODEL_CONSUMER>-erasure`, beside the audience consumer's.
 */
export function startErasureConsumer(options: { bus: Bus; prisma: PrismaClient; store: ObjectStore; durable: string; logger: Logger }): Promise<RunningConsumer> {
  const erasure = mediaErasure(options.store, { delete: (exportId) => deleteExportParts(options.bus, exportId) });
  return startErasure<Prisma.TransactionClient>({
    bus: options.bus,
    db: options.prisma,
    durable: options.durable,
    service: 'media',
    logger: options.logger,
    outside: erasure.outside,
    rows: erasure.rows,
  });
}
