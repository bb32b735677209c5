import type { Logger } from 'pino';
import type { SqlClient } from '../db/sql';
import type { Bus } from './connection';

/**
 * Where a consumer with a read model last stood, kept in its own database
 * (issue 38, item 8): a stream sequence up to which it had handled every
 * event for it. JetStream deletes events past the stream's age (7 days); a
 * consumer away longer finds the events it never read gone, and the server
 * moves it past them without a word. Its own position says so: when the
 * stream's first event is past the position, events in between were deleted
 * unread, and some may have been for it.
 *
 * Why not JetStream's own consumer state: a filtered consumer's delivered
 * sequence stays at the last event *for it* (measured: at 1 on a stream
 * whose first was 9 while it was caught up), so a quiet consumer would look
 * like one that missed a week. The position is taken only when the consumer
 * has nothing pending, as the stream's last sequence at that moment.
 *
 * Kept in the consumer's database, so a database restored from a backup
 * carries the position it had then, and the check runs against it.
 */
export interface Position {
  streamSeq: number;
  /** When it was taken (the database's clock): the consumer had handled everything published before. */
  recordedAt: Date;
}

export interface PositionStore {
  load(durable: string): Promise<Position | null>;
  save(durable: string, streamSeq: number): Promise<void>;
}

/** The platform part `positions` (runtime migrations/positions): one row per durable. */
export function sqlPositions<Tx extends SqlClient>(db: { $transaction<R>(fn: (tx: Tx) => Promise<R>): Promise<R> }): PositionStore {
  return {
    async load(durable) {
      const rows = await db.$transaction((tx) =>
        tx.$queryRawUnsafe<Array<{ seq: string; at: Date }>>('SELECT "stream_seq"::text AS "seq", "recorded_at" AS "at" FROM "consumer_positions" WHERE "durable" = $1', durable),
      );
      const row = rows[0];
      return row ? { streamSeq: Number(row.seq), recordedAt: new Date(row.at) } : null;
    },
    async save(durable, streamSeq) {
      // Never backwards: two copies of a consumer save side by side, and the later save may carry the older look.
      await db.$transaction((tx) =>
        tx.$executeRawUnsafe(
          `INSERT INTO "consumer_positions" ("durable", "stream_seq", "recorded_at") VALUES ($1, $2, now())
           ON CONFLICT ("durable") DO UPDATE SET "stream_seq" = GREATEST("consumer_positions"."stream_seq", EXCLUDED."stream_seq"), "recorded_at" = now()`,
          durable,
          streamSeq,
        ),
      );
    },
  };
}

/** Events a consumer never read that its stream no longer holds: sequences `from`..`to`, all published after `since`. */
export interface ConsumerGap {
  stream: string;
  durable: string;
  from: number;
  to: number;
  /** When the consumer was last known caught up: what it missed came after. */
  since: Date;
}

/**
 * The gap, if any, between where the consumer last stood and the stream's
 * first event. Null for a consumer without a position yet (it has read
 * nothing, or predates positions: it reads the stream from its start).
 */
export async function findGap(bus: Bus, stream: string, durable: string, store: PositionStore): Promise<ConsumerGap | null> {
  const position = await store.load(durable);
  if (position === null) return null;
  // An empty stream reports first = last + 1, so the same comparison holds for it.
  const { first_seq: first, last_seq: last } = (await bus.jsm.streams.info(stream)).state;
  // A stream behind the position was made anew (its data lost): nothing it held before can be trusted read.
  if (last < position.streamSeq) return { stream, durable, from: 1, to: Math.max(1, last), since: position.recordedAt };
  if (first <= position.streamSeq + 1) return null;
  return { stream, durable, from: position.streamSeq + 1, to: first - 1, since: position.recordedAt };
}

/**
 * Takes the consumer's position every `intervalMs` while it runs: the
 * stream's last sequence read *before* a look at the consumer that finds
 * nothing pending and nothing unacknowledged — every event up to it was
 * handled. A look that finds work pending saves nothing.
 */
export function trackPosition(options: { bus: Bus; stream: string; durable: string; store: PositionStore; logger: Logger; intervalMs: number }): {
  stop(): void;
  /** One look; true when the consumer was caught up and its position saved. */
  once(): Promise<boolean>;
  /** At a graceful stop: the last acknowledgements reach the server first, and a look that still finds one pending is made again, a few times. */
  final(): Promise<boolean>;
} {
  const { bus, stream, durable, store, logger } = options;
  /** 'saved', or why not: events not yet delivered ('behind'), or delivered and not yet acknowledged ('acking'). */
  const look = async (): Promise<'saved' | 'behind' | 'acking'> => {
    const last = (await bus.jsm.streams.info(stream)).state.last_seq;
    const info = await bus.jsm.consumers.info(stream, durable);
    if (info.num_pending !== 0 || last === 0) return 'behind';
    if (info.num_ack_pending !== 0) return 'acking';
    await store.save(durable, last);
    return 'saved';
  };
  const once = async () => (await look()) === 'saved';
  const final = async () => {
    // An ack is a message the server applies after it arrives: flush so the last ones are in before looking,
    // and look again a little later while only acknowledgements are outstanding (never while events wait).
    await bus.nc.flush();
    for (let attempt = 1; ; attempt++) {
      const outcome = await look();
      if (outcome !== 'acking' || attempt === 3) return outcome === 'saved';
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  };
  const timer = setInterval(() => {
    once().catch((err: unknown) => logger.warn({ err, durable }, 'consumer position not taken'));
  }, options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), once, final };
}

/** The same store under keys of `prefix` + durable (one database's consumers of several streams). */
export function keyedPositions(store: PositionStore, prefix: string): PositionStore {
  return { load: (durable) => store.load(prefix + durable), save: (durable, seq) => store.save(prefix + durable, seq) };
}
