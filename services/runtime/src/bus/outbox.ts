import { randomUUID } from 'node:crypto';
import { eventSchemas, subjectFor, type EventData, type EventEnvelope, type EventType } from '@hoptrack/proto';
import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';
import type { SqlClient, TransactionalSqlClient } from '../db/sql';
import type { Bus } from './connection';
import { peopleNamed } from './people-named';
import { Poller } from './poller';

/** The values of an outbox row as Outbox.prepare makes them: id, subject, JSON payload, the ids its event names (people-named.ts). */
export type OutboxValues = [id: string, subject: string, payload: string, people: string[]];

/** The INSERT of one row of OutboxValues. */
const INSERT_ROW = 'INSERT INTO "outbox" ("id", "subject", "payload", "people") VALUES ($1::uuid, $2, $3::jsonb, $4::uuid[])';

/**
 * Transactional outbox. A change and the event announcing it are written in
 * one database transaction; the relay publishes afterwards. An event is thus
 * never published for a rolled-back change, and never lost when the process
 * dies between commit and publish: the row waits for the next relay run.
 */
/**
 * The transactions (the client objects handed to `enqueue`) that wrote an
 * event. A consumer pokes its relay only after a commit of one of them
 * (read-models.ts): a poke after every commit made an empty relay pass — a
 * BEGIN, a SELECT … FOR UPDATE and a COMMIT — per event in every consumer
 * that only sometimes writes events (issue 41: two per session create).
 */
const writers = new WeakSet<object>();

/** Whether `tx` wrote an event through an Outbox. */
export const wroteEvents = (tx: object): boolean => writers.has(tx);

export class Outbox {
  constructor(
    private readonly namespace: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Validates the payload against its contract and writes it in the caller's transaction. */
  async enqueue<T extends EventType>(
    tx: SqlClient,
    type: T,
    data: EventData<T>,
    requestId?: string,
  ): Promise<EventEnvelope<T>> {
    const { envelope, row } = this.prepare(type, data, requestId);
    await tx.$executeRawUnsafe(INSERT_ROW, ...row);
    writers.add(tx);
    return envelope;
  }

  /**
   * The validated envelope and the values of its outbox row (id, subject,
   * JSON payload, the ids it names), for a change that writes itself and its event in one
   * statement (a data-modifying CTE): atomic without a transaction's extra
   * round trips, the hot path of a session create.
   */
  prepare<T extends EventType>(type: T, data: EventData<T>, requestId?: string): { envelope: EventEnvelope<T>; row: OutboxValues } {
    const envelope: EventEnvelope<T> = {
      id: randomUUID(),
      type,
      occurredAt: this.clock().toISOString(),
      ...(requestId ? { requestId } : {}),
      data: eventSchemas[type].parse(data) as EventData<T>,
    };
    return { envelope, row: [envelope.id, subjectFor(this.namespace, type), JSON.stringify(envelope), peopleNamed(envelope.data)] };
  }
}

interface OutboxRow {
  id: string;
  subject: string;
  payload: unknown;
}

export interface RelayOptions {
  /**
   * The service's own database, through plain pg (`pgSqlClient`, the `sql` of
   * its connections): a pass through Prisma's interactive transaction cost
   * the relaying process about twice the CPU (docs/benchmarks.md, "The outbox
   * relay on plain pg").
   */
  db: TransactionalSqlClient;
  bus: Bus;
  logger: Logger;
  /** How often to look for rows another process (or a crash) left behind. */
  pollMs?: number;
  /** The longest wait between those looks while they find nothing (Poller's `idleMaxMs`; 8 × pollMs by default). */
  idlePollMs?: number;
  batchSize?: number;
}

/**
 * Batches whose "published" mark may be committing while the relay publishes
 * the next: each holds a pooled connection (and its rows' locks) until its
 * commit. One lets the next batch's publish overlap the last one's commit
 * with at most two of the service's connections; more would take the whole
 * of a small pool (two per process in the two-copy test stack) from the
 * requests and consumers sharing it.
 */
const MARKS_IN_FLIGHT = 1;

/** A publishing run: how many events went out, and the commit of their marks. */
interface Run {
  count: number;
  marked: Promise<void>;
}

/**
 * Publishes outbox rows in order. A batch is read with FOR UPDATE SKIP LOCKED
 * and its locks are held until its "published" mark commits, so several
 * replicas relay side by side without publishing the same rows, and an
 * erasure's delete of a row being published waits for it. The mark commits
 * asynchronously: the relay publishes the next batch (or ends its pass)
 * without waiting for it. A mark lost to a crash or a failed commit leaves its
 * rows unpublished; the next run publishes them again with the same msg id
 * (the event's id), which JetStream drops as a duplicate inside its window
 * (10 min, connection.ts; the relay retries within a poll).
 */
export class OutboxRelay {
  private readonly poller: Poller;
  private readonly batchSize: number;
  /** Marks committing now; each settles without rejecting (a failure is logged). */
  private readonly marks = new Set<Promise<void>>();

  constructor(private readonly options: RelayOptions) {
    this.batchSize = options.batchSize ?? 100;
    // The poller's passes leave their marks committing: a poke during a commit starts the next pass at once.
    this.poller = new Poller(async ({ poked }) => (poked ? (await this.publish()).count : this.publishLeftovers()), {
      pollMs: options.pollMs ?? 1000,
      // Another process's leftovers (its relay off, or it crashed between commit and publish) wait at most this long
      // on an idle stack; the relay's own commits poke it, and a restarted process publishes at once.
      idleMaxMs: options.idlePollMs ?? 8 * (options.pollMs ?? 1000),
      logger: options.logger,
      failure: 'outbox relay failed; will retry',
    });
  }

  start(): void {
    this.poller.start();
  }

  /** Called after a commit that wrote events, so they go out now rather than at the next poll. */
  poke(): void {
    this.poller.poke();
  }

  /** The publishing run in progress: a run asked for meanwhile starts after it. */
  private publishing: Promise<unknown> = Promise.resolve();

  /**
   * Publishes everything pending and waits for the marks to commit; returns
   * how many events went out (rejects when a mark failed). For callers that
   * read the marks next: tests, the read-model barrier, one-off scripts.
   */
  async drain(): Promise<number> {
    const run = await this.publish();
    await run.marked;
    return run.count;
  }

  /**
   * One publishing run at a time in a relay: a second one (a poke while a test
   * drains, say) would lock the next rows past the first one's (SKIP LOCKED)
   * and could publish them first. Relays of other processes still run side by side.
   */
  private publish(): Promise<Run> {
    const run = this.publishing.then(() => this.publishNow());
    this.publishing = run.catch(() => undefined);
    return run;
  }

  /**
   * The timer's pass: almost always nothing waits (commits poke the relay),
   * so one plain statement looks first, and only rows found open the locked
   * transaction. An idle service's relay was a BEGIN, a SELECT … FOR UPDATE
   * and a COMMIT every second in every process (issue 41: an idle stack is
   * not idle).
   */
  private async publishLeftovers(): Promise<number> {
    const waiting = await this.options.db.$queryRawUnsafe<Array<{ one: number }>>('SELECT 1 AS "one" FROM "outbox" WHERE "published_at" IS NULL LIMIT 1');
    return waiting.length > 0 ? (await this.publish()).count : 0;
  }

  private async publishNow(): Promise<Run> {
    let count = 0;
    const marks: Array<Promise<void>> = [];
    // Rows this run published whose mark has not committed: a mark that failed unlocked its rows,
    // which the run must not publish again (they wait for the next run, a poll or a poke away).
    const unmarked = new Set<string>();
    for (;;) {
      while (this.marks.size > MARKS_IN_FLIGHT) await Promise.race(this.marks);
      const batch = await this.publishBatch([...unmarked]);
      count += batch.ids.length;
      batch.ids.forEach((id) => unmarked.add(id));
      marks.push(batch.marked);
      void batch.marked.then(() => batch.ids.forEach((id) => unmarked.delete(id)), () => undefined);
      if (batch.ids.length < this.batchSize) {
        const marked = Promise.all(marks).then(() => undefined);
        // The poller's passes never await it (a failure is logged by `track`); drain() does, and still sees the rejection.
        marked.catch(() => undefined);
        return { count, marked };
      }
    }
  }

  /** Reads, locks and publishes one batch (but `skip`); resolves once it is published, its mark still committing. */
  private async publishBatch(skip: string[]): Promise<{ ids: string[]; marked: Promise<void> }> {
    let published: (ids: string[]) => void = () => undefined;
    const publishedNow = new Promise<string[]>((resolve) => (published = resolve));
    const marked = this.options.db.$transaction(
      async (tx) => {
        const rows = await tx.$queryRawUnsafe<OutboxRow[]>(
          `SELECT "id"::text AS "id", "subject", "payload" FROM "outbox"
           WHERE "published_at" IS NULL AND NOT ("id" = ANY($2::uuid[])) ORDER BY "seq" LIMIT $1 FOR UPDATE SKIP LOCKED`,
          this.batchSize,
          skip,
        );
        // The whole batch goes out before any ack is awaited: one connection keeps the messages in
        // order, so the stream stores them in outbox order, and the relay waits one round trip per
        // batch instead of one per event (the bench measured 3-10x the throughput of publishing one
        // at a time). If any publish fails the transaction rolls back and the batch goes out again;
        // the ones that had been stored are dropped as duplicates by their message id. Only such a
        // partial failure (one publish failing while a later one on the same connection succeeds)
        // can store a later event of a batch before an earlier one; consumers already take events
        // of different services in any order and apply user snapshots newest-wins.
        const acks = await Promise.all(rows.map((row) => this.options.bus.publish(row.subject, JSON.stringify(row.payload), row.id)));
        rows.forEach((row, i) => {
          this.options.logger.debug({ eventId: row.id, subject: row.subject, duplicate: acks[i]?.duplicate }, 'event published');
          this.options.bus.metrics?.published.inc({ type: row.subject.slice(this.options.bus.namespace.length + 1) });
        });
        published(rows.map((r) => r.id));
        if (rows.length > 0) {
          // Where each event was stored, from its ack (a duplicate's ack gives the first copy's place):
          // an erasure deletes exactly those messages (bus/purge.ts) instead of reading the streams.
          await tx.$executeRawUnsafe(
            `UPDATE "outbox" SET "published_at" = now(), "stream" = v."stream", "stream_seq" = v."seq"
             FROM unnest($1::uuid[], $2::text[], $3::bigint[]) AS v("id", "stream", "seq") WHERE "outbox"."id" = v."id"`,
            rows.map((r) => r.id),
            acks.map((a) => a.stream),
            acks.map((a) => a.seq),
          );
        }
      },
      { timeout: 30_000 },
    );
    // A read or a publish that fails rejects `marked` before anything was published: the run fails.
    // `published` is called before the mark's statement, so once published the race is decided.
    const ids = await Promise.race([publishedNow, marked.then((): string[] => [])]);
    this.track(marked);
    return { ids, marked };
  }

  /** Keeps a committing mark counted until it settles; a failed one is logged, its rows published again by the next run. */
  private track(marked: Promise<void>): void {
    const settled: Promise<void> = marked.then(
      () => undefined,
      (err: unknown) => this.options.logger.warn({ err }, 'outbox relay: marking published rows failed; the next run publishes them again (JetStream drops the copies)'),
    );
    this.marks.add(settled);
    void settled.finally(() => this.marks.delete(settled));
  }

  /** `outbox_pending_events`: committed events not yet published (a stuck relay or an unreachable NATS shows here). */
  registerMetrics(registry: Registry): void {
    const db = this.options.db;
    new Gauge({
      name: 'outbox_pending_events',
      help: 'Committed events the relay has not published yet',
      registers: [registry],
      async collect() {
        const [row] = await db.$queryRawUnsafe<Array<{ pending: number }>>('SELECT count(*)::int AS "pending" FROM "outbox" WHERE "published_at" IS NULL');
        this.set(row?.pending ?? 0);
      },
    });
  }

  /** After the pass under way and the marks still committing: the connections may close next. */
  async stop(): Promise<void> {
    await this.poller.stop();
    await this.publishing;
    await Promise.all([...this.marks]);
  }
}
