import { streamNameFor, type StreamName } from '@hoptrack/proto';
import type { Logger } from 'pino';
import type { SqlClient } from '../db/sql';
import type { Bus } from './connection';
import type { OutboxRelay } from './outbox';

/** A consumer that delivers nothing and has no pull request waiting at every look for this long, while it has events pending, is not being read. */
const UNREAD_AFTER_MS = 250;

export interface BarrierOptions {
  db: SqlClient;
  bus: Bus;
  relay: OutboxRelay;
  logger: Logger;
  /** The longest a request waits for the read models; past it, it answers anyway (and logs). */
  timeoutMs: number;
  pollMs?: number;
}

/**
 * Read-your-writes for privacy changes. Other services learn of a block or a
 * private switch from events, a few milliseconds later; for those writes a
 * person must be able to trust the moment the answer arrives: 'blocked' means
 * nothing of theirs shows anywhere from now on. The barrier holds the answer
 * until the change's events are published and every durable consumer of the
 * stream has applied everything up to them — bounded, so a consumer that is
 * down delays answers by at most `timeoutMs`, never blocks them.
 */
export class ReadModelBarrier {
  private readonly pollMs: number;

  constructor(private readonly options: BarrierOptions) {
    this.pollMs = options.pollMs ?? 5;
  }

  /** True when every consumer caught up in time. */
  async await(eventIds: string[], stream: StreamName): Promise<boolean> {
    if (eventIds.length === 0) return true;
    const { db, bus, relay } = this.options;
    const deadline = Date.now() + this.options.timeoutMs;
    const sleep = () => new Promise((r) => setTimeout(r, this.pollMs));
    // Publish now rather than at the relay's next run (rows another run holds are left to it).
    await relay.drain().catch((err: unknown) => this.options.logger.warn({ err }, 'barrier: publishing failed; waiting for the relay'));
    // 1. Published: the relay marks each row once JetStream acknowledged it.
    for (;;) {
      const [row] = await db.$queryRawUnsafe<Array<{ pending: number }>>(
        'SELECT count(*)::int AS "pending" FROM "outbox" WHERE "id" = ANY($1::uuid[]) AND "published_at" IS NULL',
        eventIds,
      );
      if ((row?.pending ?? 0) === 0) break;
      if (Date.now() > deadline) return this.late(eventIds, stream, ['(not yet published)']);
      await sleep();
    }
    // 2. Applied: no durable consumer has anything pending or unacknowledged
    // (JetStream counts pending per consumer from the stream, so the events just published are in it).
    const name = streamNameFor(bus.namespace, stream);
    // Where each lagging consumer's deliveries stood when first seen: one that delivers
    // nothing for a while has no process reading it (a retired service's durable), and
    // must not hold every privacy change up to the bound.
    const deliveredAtStart = new Map<string, number>();
    // Since when each looked unread at every look: a live reader between two pull requests shows no
    // request waiting for a moment (a loaded machine's messaging was once judged unread so, and a deleted
    // person's token was accepted at once after the deletion answered, 2026-12-04); a retired one, always.
    const quietSince = new Map<string, number>();
    const unread = new Set<string>();
    for (;;) {
      const lagging: string[] = [];
      for await (const consumer of await bus.jsm.consumers.list(name)) {
        if (!consumer.config.durable_name) continue; // ephemeral (live feeds) hold no read model
        if (consumer.num_pending + consumer.num_ack_pending === 0) continue;
        const before = deliveredAtStart.get(consumer.name) ?? consumer.delivered.stream_seq;
        deliveredAtStart.set(consumer.name, before);
        // No pull request waiting as well: a process that reads the consumer keeps one open, even
        // when it is too busy (a loaded machine) to have taken anything for a while.
        const quiet = consumer.num_waiting === 0 && consumer.num_ack_pending === 0 && consumer.delivered.stream_seq === before;
        if (!quiet) quietSince.delete(consumer.name);
        else if (!quietSince.has(consumer.name)) quietSince.set(consumer.name, Date.now());
        const idle = quiet && Date.now() - (quietSince.get(consumer.name) ?? Date.now()) >= UNREAD_AFTER_MS;
        if (idle) unread.add(consumer.name);
        else lagging.push(consumer.name);
      }
      if (lagging.length === 0) {
        if (unread.size > 0) this.options.logger.warn({ stream, consumers: [...unread] }, 'barrier: consumers nobody reads were not waited for');
        return true;
      }
      if (Date.now() > deadline) return this.late(eventIds, stream, lagging);
      await sleep();
    }
  }

  private late(eventIds: string[], stream: StreamName, lagging: string[]): false {
    this.options.logger.warn({ eventIds, stream, lagging, timeoutMs: this.options.timeoutMs }, 'read models did not catch up in time; answering anyway');
    return false;
  }
}
