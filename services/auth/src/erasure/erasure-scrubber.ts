import { forgetAnswersNaming, forgetEventsNaming, Poller, scrubDeadLetters, StreamPurger, type Bus, type Logger, type Outbox } from '@hoptrack/runtime';
import type { PrismaClient } from '../db';
import { erasuresRepository as erasures } from '../repositories/erasures.repository';

const BATCH = 10;

/**
 * The last step of an erasure: once every service reported (complete_at),
 * auth's own outbox events that name the person go (their messages queued
 * for the purger, which deletes them from the streams once every consumer
 * has them, with the reports and deletions the coordinator queued), auth's
 * rate-limit windows that name them leave Redis (by name: every other key
 * naming a person is its service's, gone with its erasure), their dead
 * letters go, and last the erasure's row, the
 * last place that named them. A dead letter some consumer has not
 * acknowledged yet keeps the row for the next pass. Replicas share the
 * table: each row is worked by one of them at a time (SKIP LOCKED).
 */
export class ErasureScrubber {
  private readonly poller: Poller;
  private readonly purger: StreamPurger;

  constructor(
    private readonly options: {
      prisma: PrismaClient;
      bus: Bus;
      /** Deletes the Redis windows that name the person (auth's limits, by name: limit-keys.ts); resolves how many there were. */
      forgetLimits: (userId: string, email: string | null) => Promise<number>;
      logger: Logger;
      pollMs: number;
      /** Sends the second pass's user.deleted.v1 (auth's outbox, with the erasure's row in one transaction). */
      outbox: Outbox;
      onEventsCommitted: () => void;
      /** The grace between an erasure's first pass and its second (ERASURE_RESWEEP_MS; 0: none). */
      resweepMs: number;
      clock: () => Date;
    },
  ) {
    // Idle, it looks less and less often, up to 4 × pollMs (Poller): the last report pokes it, and a second pass's
    // grace or a dead letter's ack is found at most that long after.
    this.poller = new Poller(() => this.pass(), { pollMs: options.pollMs, idleMaxMs: 4 * options.pollMs, logger: options.logger, failure: 'erasure scrub failed; next poll retries' });
    this.purger = new StreamPurger({ bus: options.bus, db: options.prisma, logger: options.logger.child({ component: 'stream-purger' }) });
  }

  start(): { stop(): Promise<void> } {
    this.poller.start();
    this.purger.start();
    return {
      stop: async () => {
        await this.poller.stop();
        await this.purger.stop();
      },
    };
  }

  poke(): void {
    this.poller.poke();
    this.purger.poke();
  }

  /** Resolves how many erasures it moved on (0: the poller may wait longer). */
  private async pass(): Promise<number> {
    return (await this.resweep()) + (await this.scrub());
  }

  /**
   * The second pass (issue 38, item 3): a write authenticated just before the
   * deletion may commit after a service's first pass, naming the person again.
   * Once the grace has passed, user.deleted.v1 goes out again: every service
   * erases once more (a replayed deletion is harmless), and the streams are
   * scrubbed after that pass, so what those writes published goes too.
   */
  private async resweep(): Promise<number> {
    const { prisma, outbox, logger, resweepMs } = this.options;
    if (resweepMs <= 0) return 0;
    const sent = await prisma.$transaction(async (tx) => {
      const due = await erasures.lockDueForResweep(tx, resweepMs, BATCH);
      for (const { userId } of due) {
        await outbox.enqueue(tx, 'user.deleted.v1', { userId });
        await erasures.startResweep(tx, userId, this.options.clock());
      }
      return due.length;
    });
    if (sent > 0) {
      logger.info({ erasures: sent }, 'second erasure pass sent');
      this.options.onEventsCommitted();
    }
    return sent;
  }

  private async scrub(): Promise<number> {
    const { prisma, bus, forgetLimits, logger } = this.options;
    const finished = await prisma.$transaction(
      async (tx) => {
        const due = await erasures.lockDue(tx, BATCH);
        let done = 0;
        for (const { userId, email } of due) {
          const needles = email ? [userId, email] : [userId];
          const deadLetters = await scrubDeadLetters(bus, needles, logger);
          const keys = await forgetLimits(userId, email);
          if (deadLetters.waiting > 0) continue;
          // By id alone: auth's events name the address only beside the id (the user snapshot).
          const queued = await forgetEventsNaming(tx, [userId]);
          await forgetAnswersNaming(tx, needles);
          await erasures.delete(tx, userId);
          done += 1;
          logger.info({ streamMessagesQueued: queued, deadLetters: deadLetters.deleted, redisKeys: keys }, 'erasure finished');
        }
        return done;
      },
      { timeout: 60_000 },
    );
    // Committed: the messages it queued may go now.
    if (finished > 0) this.purger.poke();
    return finished;
  }
}
