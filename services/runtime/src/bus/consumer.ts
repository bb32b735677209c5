import {
  AckPolicy,
  DeliverPolicy,
  nanos,
  type ConsumerMessages,
  type JsMsg,
} from 'nats';
import {
  parseEvent,
  streamNameFor,
  streamOf,
  subjectFor,
  type EventEnvelope,
  type EventType,
  type StreamName,
} from '@hoptrack/proto';
import type { Logger } from 'pino';
import type { SqlClient } from '../db/sql';
import { ensureStreams, retryJetStream, type Bus } from './connection';
import { parkDeadLetter } from './dead-letters';
import { ReadyQueue } from './ready-queue';
import type { ConsumeOutcome } from './metrics';
import { findGap, keyedPositions, sqlPositions, trackPosition, type ConsumerGap, type PositionStore } from './positions';

/** One handler per event type, typed from the contract in proto/. */
export type EventHandlers<Tx = SqlClient> = {
  [T in EventType]?: (event: EventEnvelope<T>, context: HandlerContext<Tx>) => Promise<void>;
};

export interface HandlerContext<Tx = SqlClient> {
  /** Child logger carrying the event id, type and originating request id. */
  logger: Logger;
  /** The transaction that also records the event as processed (with an inbox). */
  tx?: Tx;
  redeliveryCount: number;
  /** Where the message is stored: what a handler queues for deletion when the event names a person (bus/purge.ts). */
  message: { stream: string; seq: number; subject: string };
}

/** Records processed event ids so a redelivered event changes nothing twice. */
export interface Inbox<Tx = SqlClient> {
  /**
   * Runs `fn` unless this consumer already processed the event; true when it
   * ran, or was skipped for good by the inbox's guard (an event the guard
   * refuses is marked processed and not applied).
   */
  runOnce(consumer: string, event: Pick<EventEnvelope, 'id' | 'type' | 'data'>, fn: (tx: Tx) => Promise<void>): Promise<boolean>;
  /**
   * Several events in one transaction, in their order: each claimed and, when
   * it ran, applied as runOnce would, and all committed at once (one commit,
   * one WAL flush). Answers runOnce's answer for each; if any `apply` throws,
   * nothing of the batch is committed and the error is thrown.
   */
  runBatch?(consumer: string, items: ReadonlyArray<InboxItem<Tx>>): Promise<boolean[]>;
  /** Where the consumer last stood, in the same database (bus/positions.ts): a consumer with a read model finds a gap at its start. */
  positions?: PositionStore;
}

/** One event of a batch and what applying it writes (runBatch). */
export interface InboxItem<Tx = SqlClient> {
  event: Pick<EventEnvelope, 'id' | 'type' | 'data'>;
  apply: (tx: Tx) => Promise<void>;
}

/**
 * An extension point of the inbox: a look that the claim of every event
 * makes in the same statement, so a guard costs no round trip. The audience
 * module's guard (audienceInbox) skips events naming an erased person, so a
 * late event cannot bring back what an erasure removed.
 */
export interface InboxGuard {
  /** The value bound as `$3` for this event, or undefined when there is nothing to look for. */
  bind(event: Pick<EventEnvelope, 'type' | 'data'>): unknown;
  /** A boolean SQL expression over `$3`: true skips the event for good. */
  skipWhen: string;
}

/** The longest one inbox transaction (a batch) may run through Prisma before it is rolled back. */
const BATCH_TRANSACTION_TIMEOUT_MS = 20_000;

/**
 * The Postgres inbox: the dedup row and the handler's writes commit together.
 * Generic over the transaction type, so a service's handlers get its Prisma transaction.
 */
export function sqlInbox<Tx extends SqlClient = SqlClient>(
  db: { $transaction<R>(fn: (tx: Tx) => Promise<R>, options?: { timeout?: number }): Promise<R> },
  options: { guard?: InboxGuard } = {},
): Inbox<Tx> {
  const { guard } = options;
  const runBatch = (consumer: string, items: ReadonlyArray<InboxItem<Tx>>) =>
    db.$transaction(
      async (tx) => {
        const ran: boolean[] = [];
        for (const { event, apply } of items) {
          const bound = guard?.bind(event);
          const { inserted, skip } = guard && bound !== undefined ? await claimUnless(tx, consumer, event.id, guard.skipWhen, bound) : await claim(tx, consumer, event.id);
          // Claimed earlier (another delivery, or the same event twice in this batch: the row is visible in the transaction).
          if (inserted && !skip) await apply(tx);
          ran.push(inserted);
        }
        return ran;
      },
      // A batch of 64 on a busy machine can outlast Prisma's 5-s default; the in-progress signals keep its messages meanwhile.
      { timeout: BATCH_TRANSACTION_TIMEOUT_MS },
    );
  return {
    positions: sqlPositions(db),
    runBatch,
    async runOnce(consumer, event, fn) {
      const [ran] = await runBatch(consumer, [{ event, apply: fn }]);
      return ran === true;
    },
  };
}

interface Claim {
  /** This consumer had not processed the event: its dedup row is written now. */
  inserted: boolean;
  /** The guard refused the event. */
  skip: boolean;
}

async function claim(tx: SqlClient, consumer: string, eventId: string): Promise<Claim> {
  const inserted = await tx.$executeRawUnsafe(
    'INSERT INTO "processed_events" ("consumer", "event_id") VALUES ($1, $2::uuid) ON CONFLICT DO NOTHING',
    consumer,
    eventId,
  );
  return { inserted: inserted > 0, skip: false };
}

/**
 * The dedup row and the guard's look in one statement: one round trip per
 * event, as before there were guards (every consumed event of every service
 * pays it; docs/benchmarks.md).
 */
async function claimUnless(tx: SqlClient, consumer: string, eventId: string, skipWhen: string, bound: unknown): Promise<Claim> {
  const rows = await tx.$queryRawUnsafe<Array<{ inserted: boolean; skip: boolean }>>(
    `WITH "claimed" AS (
       INSERT INTO "processed_events" ("consumer", "event_id") VALUES ($1, $2::uuid) ON CONFLICT DO NOTHING RETURNING 1
     )
     SELECT EXISTS (SELECT 1 FROM "claimed") AS "inserted", (${skipWhen}) AS "skip"`,
    consumer,
    eventId,
    bound,
  );
  return { inserted: rows[0]?.inserted === true, skip: rows[0]?.skip === true };
}

export interface ConsumerOptions<Tx = SqlClient> {
  bus: Bus;
  stream: StreamName;
  /** Durable name: the consumer's identity, kept by JetStream across restarts. */
  durable: string;
  handlers: EventHandlers<Tx>;
  logger: Logger;
  inbox?: Inbox<Tx>;
  /** Cap on unacknowledged messages in flight. */
  maxAckPending?: number;
  maxDeliver?: number;
  ackWaitMs?: number;
  /**
   * Called once a handler's writes are committed (and not for a duplicate),
   * with the events committed: e.g. to poke an outbox relay the handler wrote
   * events to, which could not see them before the commit, or to act on what
   * the commit made visible (sessions' backfill announcements).
   */
  afterCommit?: (events: readonly EventEnvelope[]) => void;
  /**
   * The most events applied in one inbox transaction (default 64, the most
   * in flight): the consumer takes what it has received, up to this, and
   * never waits for a full batch. 1 applies each event alone, for handlers
   * whose side effects outside the transaction must not run for an event
   * that is then rolled back with its batch (docs/decisions.md, consumer
   * batching). Consumers without an inbox have no transaction to share and
   * take one event at a time.
   */
  batchSize?: number;
  /**
   * Called at start when the stream deleted events past its age that this
   * consumer never read (it was away longer; bus/positions.ts), after the
   * error log and the `bus_consumer_missed_events_total` count: e.g. ask the
   * owner to announce again what changed since. Awaited before the consumer
   * reads on; if it throws, the start fails and the next start finds the gap again.
   */
  onGap?: (gap: ConsumerGap) => Promise<void> | void;
}

export interface RunningConsumer {
  /** Resolves when every message received so far is settled. */
  stop(): Promise<void>;
}

const ACK_WAIT_MS = 30_000;
/**
 * How long each pull request of a consumer lives (nats.js `consume({ expires })`;
 * its idle heartbeat is half of it). It is also how long the client waits
 * between its attempts to find its consumer again after a reconnect or missed
 * heartbeats: with nats.js's 30 s default, consumers resumed 45 s after a
 * whole JetStream cluster came back and live streams 27 s after (issue 38,
 * item 5); with 5 s, within about 5 s of JetStream answering again. The cost
 * is one pull request per idle consumer every 5 s. The live feed's ordered
 * consumers use it too.
 */
export const PULL_EXPIRES_MS = 5000;
/** How often a consumer with a read model takes its position (one look at the stream and the consumer, a row written when caught up). */
const POSITION_INTERVAL_MS = 60_000;
/** Deliveries of one event before it is parked. */
const MAX_DELIVER = 20;
const backoffMs = (attempt: number) => Math.min(30_000, 500 * 2 ** attempt);
/** Events per inbox transaction: as many as may be in flight (max_ack_pending's default). */
const DEFAULT_BATCH = 64;

/**
 * A durable JetStream consumer with explicit acks. Expected outcomes ack;
 * a fault naks with backoff and JetStream redelivers; a message that cannot
 * be parsed is parked in the dead-letter stream, since no retry will ever make it valid.
 */
export async function startConsumer<Tx = SqlClient>(options: ConsumerOptions<Tx>): Promise<RunningConsumer> {
  const { bus, logger } = options;
  const stream = streamNameFor(bus.namespace, options.stream);
  const types = Object.keys(options.handlers) as EventType[];
  if (types.length === 0) throw new Error(`consumer ${options.durable} has no handlers`);
  // Where this consumer parks what it cannot handle.
  await ensureStreams(bus, ['DEADLETTER']);
  await retryJetStream(() => bus.jsm.consumers.add(stream, {
    durable_name: options.durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    // One subject filter (NATS 2.9 has no filter_subjects): the exact subject for a
    // single type, else the whole stream; types without a handler are acked unread.
    filter_subject: types.length === 1 && types[0] ? subjectFor(bus.namespace, types[0]) : `${bus.namespace}.>`,
    max_ack_pending: options.maxAckPending ?? 64,
    max_deliver: options.maxDeliver ?? MAX_DELIVER,
    ack_wait: nanos(options.ackWaitMs ?? ACK_WAIT_MS),
  }));
  // What it reads is what its handlers name in this stream (a consumer given a shared handler map reads only its stream's part).
  bus.consumers.push({ stream: options.stream, durable: options.durable, types: types.filter((type) => streamOf(type) === options.stream) });
  // Keyed by the stream's full name: a database that outlives its stream (a restore into another
  // namespace, tests sharing databases) must not take another stream's sequence for its own.
  const positions = options.inbox?.positions ? keyedPositions(options.inbox.positions, `${stream}/`) : undefined;
  if (positions) await reportGap(options, stream, positions);
  const tracker = positions ? trackPosition({ bus, stream, durable: options.durable, store: positions, logger, intervalMs: POSITION_INTERVAL_MS }) : undefined;
  const consumer = await retryJetStream(() => bus.js.consumers.get(stream, options.durable));
  const maxInFlight = options.maxAckPending ?? 64;
  const batchSize = options.inbox?.runBatch ? Math.max(1, Math.min(options.batchSize ?? DEFAULT_BATCH, maxInFlight)) : 1;
  // Received messages wait here, so the loop can take every one that is there at once.
  const ready = new ReadyQueue<JsMsg>();
  const messages: ConsumerMessages = await consumer.consume({ max_messages: maxInFlight, expires: PULL_EXPIRES_MS, callback: (msg) => ready.push(msg) });
  let failure: Error | undefined;
  void messages.closed().then((err) => {
    failure = err instanceof Error ? err : undefined;
    ready.close();
  });

  const loop = (async () => {
    for (let batch = await ready.take(batchSize); batch.length > 0; batch = await ready.take(batchSize)) {
      if (batch.length === 1 && batch[0]) await handleMessage(batch[0], options);
      else await handleBatch(batch, options);
    }
    // As the iterator did: reading stopped by an error (the consumer deleted under it) ends the loop with it.
    if (failure) throw failure;
  })();

  return {
    async stop() {
      tracker?.stop();
      await messages.close();
      await loop;
      // Where it stands as it goes (a graceful stop is the usual start of a long absence).
      const taken = await tracker?.final().catch((err: unknown) => logger.warn({ err, durable: options.durable }, 'consumer position not taken at stop'));
      if (taken === false) logger.info({ durable: options.durable }, 'consumer stopped with events pending: position left where it was');
    },
  };
}

/**
 * A consumer back after longer than its stream's age says so, before it
 * reads on: the events it never read are gone, and its read model may lack
 * what they said. Not silent (an error, a count, an alert: ConsumerMissedEvents),
 * and `onGap` repairs what it can (the people read models ask auth again).
 */
async function reportGap<Tx>(options: ConsumerOptions<Tx>, stream: string, positions: PositionStore): Promise<void> {
  // Every consumer with a position reports the series, at 0 until it misses something: the alert's increase() needs a start.
  options.bus.metrics?.missed.inc({ consumer: options.durable }, 0);
  const gap = await findGap(options.bus, stream, options.durable, positions);
  if (!gap) return;
  options.logger.error({ stream, consumer: options.durable, from: gap.from, to: gap.to }, "consumer missed events deleted past the stream's age: rebuild its read model");
  options.bus.metrics?.missed.inc({ consumer: options.durable }, gap.to - gap.from + 1);
  await options.onGap?.(gap);
}

/**
 * Stores the message in the DEADLETTER stream, and only then terminates it.
 * If the dead letter cannot be stored, the message is left unacknowledged
 * (JetStream delivers it no more after max_deliver, but it stays in its
 * stream and raises a MAX_DELIVERIES advisory): never dropped unseen.
 */
async function park<Tx>(msg: JsMsg, options: ConsumerOptions<Tx>, err: unknown, log: Logger, what: string): Promise<void> {
  try {
    await parkDeadLetter(options.bus, msg, options.durable, err);
    log.error({ err, deliveries: msg.info.deliveryCount }, `${what} parked in the dead-letter stream: its handler failed on every delivery`);
    msg.term();
  } catch (parkErr) {
    log.error({ err, parkErr, deliveries: msg.info.deliveryCount }, `${what} could not be parked; left unacknowledged in its stream`);
    msg.nak(backoffMs(msg.info.redeliveryCount));
  }
}

type Handler<Tx> = (event: EventEnvelope, context: HandlerContext<Tx>) => Promise<void>;

/** A delivered message read and matched to its handler: what is applied, alone or in a batch. */
interface Delivery<Tx> {
  msg: JsMsg;
  event: EventEnvelope;
  handler: Handler<Tx>;
  log: Logger;
}

const counter = <Tx>(options: ConsumerOptions<Tx>) => (type: string, outcome: ConsumeOutcome) =>
  options.bus.metrics?.consumed.inc({ consumer: options.durable, type, outcome });

/**
 * Reads a message and finds its handler. What needs no handler is settled
 * here (answering undefined): an unreadable message is parked, since no
 * retry will ever make it valid; an event of a type without a handler is acked.
 */
async function read<Tx>(msg: JsMsg, options: ConsumerOptions<Tx>): Promise<Delivery<Tx> | undefined> {
  const count = counter(options);
  let event: EventEnvelope;
  try {
    event = parseEvent(msg.json());
  } catch (err) {
    // No retry will make it readable: park it for an operator, then stop its deliveries.
    await park(msg, options, err, options.logger.child({ subject: msg.subject, seq: msg.seq }), 'unreadable event');
    count('unreadable', 'parked');
    return undefined;
  }
  const handler = options.handlers[event.type] as Handler<Tx> | undefined;
  if (!handler) {
    msg.ack();
    count(event.type, 'ignored');
    return undefined;
  }
  const log = options.logger.child({ eventId: event.id, eventType: event.type, reqId: event.requestId, consumer: options.durable });
  return { msg, event, handler, log };
}

/**
 * A handler slower than the ack wait would see its event redelivered while it still runs:
 * tell JetStream these are in progress, at half the ack wait, until they settle.
 */
function keepInProgress<Tx>(messages: readonly JsMsg[], options: ConsumerOptions<Tx>): () => void {
  const ackWaitMs = options.ackWaitMs ?? ACK_WAIT_MS;
  const timer = setInterval(() => messages.forEach((msg) => msg.working()), Math.max(100, ackWaitMs / 2));
  return () => clearInterval(timer);
}

const stored = (msg: JsMsg): HandlerContext['message'] => ({ stream: msg.info.stream, seq: msg.seq, subject: msg.subject });

async function handleMessage<Tx>(msg: JsMsg, options: ConsumerOptions<Tx>): Promise<void> {
  const delivery = await read(msg, options);
  if (delivery) await applyAlone(delivery, options);
}

/** One event in its own inbox transaction: a fault naks it with backoff, its last allowed delivery parks it. */
async function applyAlone<Tx>({ msg, event, handler, log }: Delivery<Tx>, options: ConsumerOptions<Tx>): Promise<void> {
  const count = counter(options);
  const redeliveryCount = msg.info.redeliveryCount;
  const timer = options.bus.metrics?.handlerDuration.startTimer({ consumer: options.durable, type: event.type });
  const settled = keepInProgress([msg], options);
  try {
    let ran = true;
    if (options.inbox) {
      ran = await options.inbox.runOnce(options.durable, event, (tx) => handler(event, { logger: log, tx, redeliveryCount, message: stored(msg) }));
      if (!ran) log.debug('duplicate event skipped');
    } else {
      await handler(event, { logger: log, redeliveryCount, message: stored(msg) });
    }
    if (ran) options.afterCommit?.([event]);
    msg.ack();
    count(event.type, ran ? 'ok' : 'duplicate');
  } catch (err) {
    if (msg.info.deliveryCount >= (options.maxDeliver ?? MAX_DELIVER)) {
      // A poison event: no retry will help. Park it in the dead-letter stream, then let the rest flow.
      await park(msg, options, err, log, 'event');
      count(event.type, 'parked');
    } else {
      log.error({ err, redeliveryCount }, 'event handler failed; will be redelivered');
      msg.nak(backoffMs(redeliveryCount));
      count(event.type, 'failed');
    }
  } finally {
    settled();
    timer?.();
  }
}

/**
 * What the consumer had received, in one inbox transaction: every event's
 * dedup row and writes, one commit, then every ack (written to the socket
 * together). If any handler throws, the whole batch is rolled back and each
 * event is applied alone, in order: the failing one takes the usual path
 * (redelivered with backoff, parked after its last delivery) and the others
 * commit once each. The acks stay one per message (AckPolicy.All would also
 * acknowledge an event a fallback nak'd; docs/decisions.md).
 */
async function handleBatch<Tx>(messages: readonly JsMsg[], options: ConsumerOptions<Tx>): Promise<void> {
  const deliveries: Array<Delivery<Tx>> = [];
  for (const msg of messages) {
    const delivery = await read(msg, options);
    if (delivery) deliveries.push(delivery);
  }
  const runBatch = options.inbox?.runBatch;
  if (deliveries.length <= 1 || !runBatch) {
    for (const delivery of deliveries) await applyAlone(delivery, options);
    return;
  }
  const started = performance.now();
  const settled = keepInProgress(deliveries.map((d) => d.msg), options);
  let ran: boolean[];
  try {
    ran = await runBatch.call(
      options.inbox,
      options.durable,
      deliveries.map(({ msg, event, handler, log }) => ({
        event,
        apply: (tx: Tx) => handler(event, { logger: log, tx, redeliveryCount: msg.info.redeliveryCount, message: stored(msg) }),
      })),
    );
  } catch (err) {
    options.logger.warn({ err, consumer: options.durable, events: deliveries.length }, 'event batch rolled back; applying its events one at a time');
    for (const delivery of deliveries) await applyAlone(delivery, options);
    return;
  } finally {
    settled();
  }
  if (ran.some(Boolean)) {
    // A poke after the commit; its failure must not undo what is committed.
    try {
      options.afterCommit?.(deliveries.filter((_, i) => ran[i]).map((d) => d.event));
    } catch (err) {
      options.logger.warn({ err, consumer: options.durable }, 'afterCommit failed after an event batch');
    }
  }
  // Each event's share of the batch, so the histogram still times events.
  const share = (performance.now() - started) / 1000 / deliveries.length;
  const count = counter(options);
  deliveries.forEach(({ msg, event, log }, i) => {
    msg.ack();
    if (!ran[i]) log.debug('duplicate event skipped');
    count(event.type, ran[i] ? 'ok' : 'duplicate');
    options.bus.metrics?.handlerDuration.observe({ consumer: options.durable, type: event.type }, share);
  });
}
