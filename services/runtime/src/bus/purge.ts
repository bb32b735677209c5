import type { ConsumerInfo } from 'nats';
import type { Logger } from 'pino';
import type { SqlClient } from '../db/sql';
import type { Bus } from './connection';
import { Poller } from './poller';

/**
 * The deletion of an erased person's messages from the JetStream streams
 * (issue 41, item 5), at a cost that follows the person's events, not the
 * streams' length. An erasure queues the messages in its database's
 * `stream_purges` (forgetEventsNaming, from the stream and sequence the relay
 * recorded on each outbox row; auth also queues the reports and the
 * contributions it consumed, which no outbox holds); the purger deletes each
 * one, by its sequence, once every durable consumer that would deliver it has
 * acknowledged it, so no service misses the deletion itself or an event it
 * still has to apply. Deleted with `erase`: the bytes are overwritten on disk too.
 */

export interface PurgeResult {
  /** Messages deleted from the streams in this pass (or found gone already: another process, the age limit). */
  deleted: number;
  /** Messages some consumer has not acknowledged yet: left for the next pass. */
  waiting: number;
}

export interface QueuedMessage {
  /** The stream's full name, as the publish ack gave it. */
  stream: string;
  seq: number;
  subject: string;
}

const BATCH = 1_000;

/** NATS subject matching, for the filters our consumers use (`*` one token, `>` the rest). */
export function subjectMatches(filter: string, subject: string): boolean {
  if (!filter) return true;
  const f = filter.split('.');
  const s = subject.split('.');
  for (let i = 0; i < f.length; i += 1) {
    if (f[i] === '>') return s.length > i;
    if (i >= s.length || (f[i] !== '*' && f[i] !== s[i])) return false;
  }
  return f.length === s.length;
}

/**
 * Whether every durable consumer that would deliver `subject` is done with
 * message `seq`: acknowledged up to it, or nothing left to deliver or to
 * acknowledge at all (a filtered consumer's floor stays at the last message
 * it matched). Ephemeral readers (live streams, tools) do not count.
 */
export function settledEverywhere(consumers: readonly ConsumerInfo[], subject: string, seq: number): boolean {
  return consumers.every((c) => {
    if (!c.config.durable_name) return true;
    const filters = c.config.filter_subjects ?? (c.config.filter_subject ? [c.config.filter_subject] : []);
    const delivers = filters.length === 0 || filters.some((f) => subjectMatches(f, subject));
    const caughtUp = c.num_pending === 0 && c.num_ack_pending === 0;
    return !delivers || caughtUp || c.ack_floor.stream_seq >= seq;
  });
}

/** Queues messages for deletion in the caller's transaction (a message queued twice is queued once). */
export async function queuePurges(tx: SqlClient, messages: readonly QueuedMessage[]): Promise<void> {
  if (messages.length === 0) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO "stream_purges" ("stream", "seq", "subject")
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[]) ON CONFLICT DO NOTHING`,
    messages.map((m) => m.stream),
    messages.map((m) => m.seq),
    messages.map((m) => m.subject),
  );
}

/**
 * One pass over the queue: each settled message is deleted and its row goes;
 * the rest stays for the next pass. One consumer listing per stream touched
 * and one delete request per message: nothing here reads a stream.
 */
export async function purgeQueued(bus: Bus, db: SqlClient, logger: Logger): Promise<PurgeResult> {
  const result: PurgeResult = { deleted: 0, waiting: 0 };
  const queued = await db.$queryRawUnsafe<Array<{ stream: string; seq: string; subject: string }>>(
    'SELECT "stream", "seq"::text AS "seq", "subject" FROM "stream_purges" ORDER BY "stream", "seq" LIMIT $1',
    BATCH,
  );
  const byStream = new Map<string, Array<{ seq: number; subject: string }>>();
  for (const row of queued) byStream.set(row.stream, [...(byStream.get(row.stream) ?? []), { seq: Number(row.seq), subject: row.subject }]);
  for (const [stream, messages] of byStream) {
    const consumers: ConsumerInfo[] = [];
    try {
      for await (const c of bus.jsm.consumers.list(stream)) consumers.push(c);
    } catch (err) {
      // The stream itself is gone (a namespace torn down): nothing of it is left to delete.
      if (!isMissingStream(err)) throw err;
    }
    const done: number[] = [];
    for (const { seq, subject } of messages) {
      if (consumers.length > 0 && !settledEverywhere(consumers, subject, seq)) {
        result.waiting += 1;
        continue;
      }
      // False when gone already (another process's pass, the stream's age limit): done all the same.
      await bus.jsm.streams.deleteMessage(stream, seq, true).catch((err: unknown) => {
        if (!isMissingMessage(err)) throw err;
      });
      done.push(seq);
    }
    result.deleted += done.length;
    if (done.length > 0) await db.$executeRawUnsafe('DELETE FROM "stream_purges" WHERE "stream" = $1 AND "seq" = ANY($2::bigint[])', stream, done);
  }
  if (result.deleted > 0 || result.waiting > 0) logger.info(result, 'erased messages purged from the streams');
  return result;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
const isMissingStream = (err: unknown) => /stream not found/i.test(errorText(err));
const isMissingMessage = (err: unknown) => /sequence \d+ not found|no message found|message not found|stream not found/i.test(errorText(err));

/** While messages wait for a consumer: how soon the purger looks again. */
const WAITING_RETRY_MS = 1_000;

/**
 * The purger of a service: a pass when poked (after an erasure's commit),
 * again a second later while messages wait for a consumer, and every
 * `pollMs` for what a crash left queued. Idle, it costs one indexed look
 * per poll.
 */
export class StreamPurger {
  private readonly poller: Poller;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: { bus: Bus; db: SqlClient; logger: Logger; pollMs?: number },
  ) {
    this.poller = new Poller(() => this.pass(), {
      pollMs: options.pollMs ?? 60_000,
      logger: options.logger,
      failure: 'purging erased messages failed; the next pass retries',
    });
  }

  start(): void {
    this.poller.start();
  }

  poke(): void {
    this.poller.poke();
  }

  private async pass(): Promise<void> {
    for (;;) {
      const { deleted, waiting } = await purgeQueued(this.options.bus, this.options.db, this.options.logger);
      if (waiting > 0) {
        clearTimeout(this.retry);
        this.retry = setTimeout(() => this.poller.poke(), WAITING_RETRY_MS);
        this.retry.unref();
        return;
      }
      if (deleted < BATCH) return;
    }
  }

  async stop(): Promise<void> {
    clearTimeout(this.retry);
    await this.poller.stop();
  }
}
