import { startErasure, type Bus, type Logger, type PeopleCache, type RunningConsumer } from '@hoptrack/runtime';
import type { Redis } from 'ioredis';
import type { CardRenderer } from '../cards/renderer';
import type { SessionsConfig } from '../config';
import type { PrismaClient } from '../db';
import { SessionsErasure } from '../domain/erasure';
import { createFanoutQueue, fanoutQueueSettings } from '../feed/queue';
import type { Timelines } from '../feed/timelines';

/**
 * The sessions service's part of an account deletion (user.deleted.v1 →
 * user.erased.v1, see SessionsErasure). Its durable is `<READ_MODEL_CONSUMER>-erasure`,
 * beside the audience consumer's. Stopping it also closes its handle on the fan-out queue.
 */
export async function startErasureConsumer(options: {
  bus: Bus;
  prisma: PrismaClient;
  redis: Redis;
  config: SessionsConfig;
  timelines: Timelines;
  cards: Pick<CardRenderer, 'invalidate'>;
  people: PeopleCache;
  logger: Logger;
}): Promise<RunningConsumer> {
  const { config } = options;
  const fanoutQueue = createFanoutQueue(fanoutQueueSettings(config));
  const erasure = new SessionsErasure({
    prisma: options.prisma,
    redis: options.redis,
    namespace: config.BUS_NAMESPACE,
    timelines: options.timelines,
    cards: options.cards,
    people: options.people,
    fanoutQueue,
    // A job whose worker died stays active until its lock lapses and the stalled check moves it.
    activeWaitMs: config.FANOUT_LOCK_MS + config.FANOUT_STALLED_INTERVAL_MS,
    logger: options.logger.child({ component: 'erasure' }),
  });
  try {
    const consumer = await startErasure({
      bus: options.bus,
      db: erasure.db,
      durable: config.READ_MODEL_CONSUMER,
      service: 'sessions',
      logger: options.logger,
      outside: erasure.outside,
      rows: erasure.rows,
    });
    return {
      async stop() {
        await consumer.stop();
        await fanoutQueue.close();
      },
    };
  } catch (err) {
    await fanoutQueue.close();
    throw err;
  }
}
