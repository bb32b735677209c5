import { forgetEventsNaming, Poller, scrubRedisKeys, scrubStreams, type Bus, type Logger } from '@hoptrack/runtime';
import type { Redis } from 'ioredis';
import type { PrismaClient } from '../db';
import { erasuresRepository as erasures } from '../repositories/erasures.repository';

const BATCH = 10;

/**
 * The last step of an erasure: once every service reported (complete_at),
 * the person's events leave the JetStream streams, their keys leave Redis,
 * auth's own outbox events that name them go, and last the erasure's row,
 * the last place that named them. A message some consumer has not
 * acknowledged yet keeps the row for the next pass. Replicas share the
 * table: each row is worked by one of them at a time (SKIP LOCKED).
 */
export class ErasureScrubber {
  private readonly poller: Poller;

  constructor(private readonly options: { prisma: PrismaClient; bus: Bus; redis: Redis; logger: Logger; pollMs: number }) {
    this.poller = new Poller(() => this.pass(), { pollMs: options.pollMs, logger: options.logger, failure: 'erasure scrub failed; next poll retries' });
  }

  start(): { stop(): Promise<void> } {
    this.poller.start();
    return { stop: () => this.poller.stop() };
  }

  poke(): void {
    this.poller.poke();
  }

  private async pass(): Promise<void> {
    const { prisma, bus, redis, logger } = this.options;
    await prisma.$transaction(
      async (tx) => {
        const due = await erasures.lockDue(tx, BATCH);
        for (const { userId, email } of due) {
          const needles = email ? [userId, email] : [userId];
          const streams = await scrubStreams(bus, needles, logger);
          const keys = await scrubRedisKeys(redis, needles);
          if (streams.waiting > 0) continue;
          await forgetEventsNaming(tx, needles);
          await erasures.delete(tx, userId);
          logger.info({ streamMessages: streams.deleted, redisKeys: keys }, 'erasure finished');
        }
      },
      { timeout: 300_000 },
    );
  }
}
