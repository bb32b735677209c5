import { randomUUID } from 'node:crypto';
import { connect, type JetStreamClient, type JetStreamManager } from 'nats';
import pg from 'pg';
import { Registry } from 'prom-client';
import { streamNameFor, subjectFor, type EventEnvelope } from '@hoptrack/proto';
import {
  connectBus,
  createLogger,
  ensureStreams,
  instrumentBus,
  OUTBOX_TABLE_SQL,
  OutboxRelay,
  peopleNamed,
  startConsumer,
  type Logger,
  type RunningConsumer,
  pgSqlClient,
  type TransactionalSqlClient,
} from '@hoptrack/runtime';
import { bullConnection, bullmq, createQueueWorker, observeQueueWorker, type QueueSettings } from '@hoptrack/runtime/queues';
import { fanoutJobOptions } from '../../services/sessions/src/feed/queue';
import type { BenchContext, Benchmark } from './lib/context';
import { cpuMs } from './lib/procstat';
import { compare, round } from './lib/report';

/**
 * 5. Events and jobs. How many events per second go through our bus layer
 * (outbox relay → JetStream → startConsumer) and how many jobs per second
 * through our BullMQ wrappers, each with a handler that does nothing, beside
 * the bare `nats` and `bullmq` clients doing the same work in the same run.
 * The ratio is the price of what the runtime adds per message: the relay's
 * Postgres round trips (read and mark per batch of 100, each batch published
 * before its acks are awaited), msg-id dedup,
 * envelope validation, per-message child loggers and metrics, job ids and
 * retry options.
 */


/** OutboxRelay's default batch, which no service overrides. (Consumer settings are read back from JetStream.) */
const RELAY_BATCH = 100;
/** The fan-out worker's defaults (services/sessions/src/config.ts: FANOUT_*). */
const FANOUT = { attempts: 8, concurrency: 16, lockMs: 30_000, stalledIntervalMs: 30_000 } as const;
/**
 * Publishes the raw client keeps in flight. It is a throughput-minded use of
 * the client (publish returns a promise; nothing forces waiting for each ack),
 * so the reference is what NATS can take, not what a sequential loop can.
 */
const RAW_PUBLISH_WINDOW = 256;
/**
 * Events in the stream for the consume-only runs: the run's N topped up
 * (untimed, by bare windowed publishes of the same payloads), because the
 * bare consumer drains N = 25,000 in well under a second.
 */
const BACKLOG_EVENTS = 100_000;
/** Events of the one-awaited-publish-at-a-time sample (enough for a steady rate, cheap next to the rest). */
const SEQUENTIAL_SAMPLE = 5000;
/** Jobs per addBulk call, on both sides (one call of 20,000 would be one huge Redis pipeline). */
const ADD_BULK_CHUNK = 1000;
/** Longest wait for the last event or job: a stuck consumer fails the section rather than hanging the run. */
const DEADLINE_MS = 120_000;
/** Private schema for the outbox rows: the sessions service's own relay reads "public"."outbox" and never sees them. */
const OUTBOX_SCHEMA = 'bench_events';
const DURABLE = 'bench-events';
const EVENT_TYPE = 'session.created.v1';

interface Flow {
  /** Messages counted at the far end (handled events, completed jobs). */
  count: number;
  /** Resolves when `count` reaches the target; rejects at the deadline. */
  done: Promise<void>;
  tick(): void;
}

function flow(target: number, what: string): Flow {
  let resolve: () => void = () => {};
  let reject: (err: Error) => void = () => {};
  const done = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  const state: Flow = {
    count: 0,
    done,
    tick() {
      if (++state.count === target) resolve();
    },
  };
  const timer = setTimeout(() => reject(new Error(`${what}: ${state.count} of ${target} after ${DEADLINE_MS / 1000} s`)), DEADLINE_MS);
  timer.unref();
  void done.then(() => clearTimeout(timer), () => undefined);
  return state;
}

/** Runs fn(0..n-1) with at most `window` calls in flight. */
async function windowed(n: number, window: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < n) await fn(next++);
  };
  await Promise.all(Array.from({ length: Math.min(window, n) }, lane));
}

/** What one side of a comparison did, from its first message out to its last one handled. */
interface Run {
  n: number;
  /** First publish (add) to the last acknowledged (added); null when the messages were there before (a backlog). */
  publishSeconds: number | null;
  /** First publish (add), or the consumer's start on a backlog, to the last handled (completed). */
  totalSeconds: number;
  /** Handled when the last publish was acknowledged: near n, the publishing side is the bottleneck; far below, the consuming side. */
  handledAtLastPublish: number | null;
  /** CPU this (bench) process spent, where both ends of the flow run. */
  cpuMs: number;
}

const perSecond = (r: Run) => r.n / r.totalSeconds;
const publishPerSecond = (r: Run) => (r.publishSeconds ? r.n / r.publishSeconds : 0);

const summary = (r: Run) => ({
  n: r.n,
  perSecond: Math.round(perSecond(r)),
  seconds: round(r.totalSeconds),
  ...(r.publishSeconds === null ? {} : { publishPerSecond: Math.round(publishPerSecond(r)), publishSeconds: round(r.publishSeconds) }),
  ...(r.handledAtLastPublish === null ? {} : { handledAtLastPublish: r.handledAtLastPublish }),
  benchCpuUsPerMessage: round((r.cpuMs * 1000) / r.n, 1),
});

/** Times `start` (publishing, or starting a consumer on a backlog) and the wait for the last message handled. */
async function measure(n: number, received: Flow, start: () => Promise<void>, publishes: boolean): Promise<Run> {
  const cpuBefore = cpuMs(process.pid) ?? 0;
  const started = performance.now();
  await start();
  const startedAll = performance.now();
  const handledAtLastPublish = received.count;
  await received.done;
  const finished = performance.now();
  return {
    n,
    publishSeconds: publishes ? (startedAll - started) / 1000 : null,
    totalSeconds: (finished - started) / 1000,
    handledAtLastPublish: publishes ? handledAtLastPublish : null,
    cpuMs: (cpuMs(process.pid) ?? 0) - cpuBefore,
  };
}

/** The events both sides send: the product's most frequent one, valid against its contract. */
function envelopes(n: number): Array<EventEnvelope<typeof EVENT_TYPE>> {
  const now = new Date().toISOString();
  return Array.from({ length: n }, () => ({
    id: randomUUID(),
    type: EVENT_TYPE,
    occurredAt: now,
    data: { sessionId: randomUUID(), userId: randomUUID(), beerCount: 3, duration: 90, createdAt: now, updatedAt: now },
  }));
}

/**
 * The runtime's SQL interface over pg (what services hand their relays too), adding up
 * the time spent waiting on Postgres to tell the relay's database work from its publishing.
 */
function timedSqlClient(pool: pg.Pool, spent: { ms: number }): TransactionalSqlClient {
  return pgSqlClient(pool, async (query) => {
    const t = performance.now();
    try {
      return await query;
    } finally {
      spent.ms += performance.now() - t;
    }
  });
}

/** Tops a stream up to `total` events (untimed setup): the payloads again, windowed, no msg id so none is dropped. */
async function topUp(js: JetStreamClient, subject: string, payloads: string[], total: number): Promise<void> {
  const extra = total - payloads.length;
  if (extra > 0) await windowed(extra, RAW_PUBLISH_WINDOW, (i) => js.publish(subject, payloads[i % payloads.length]));
}

async function deleteStream(jsm: JetStreamManager, name: string): Promise<void> {
  await jsm.streams.delete(name).catch((err: unknown) => {
    if (!(err instanceof Error && /not found/i.test(err.message))) throw err;
  });
}

/**
 * App level, two runs on one stream with the runtime's settings:
 * 1. concurrent: events written to an outbox (untimed: writing is the
 *    session-create figure), then published by OutboxRelay.drain() — the
 *    only way the product publishes — while a startConsumer durable with a
 *    no-op handler reads them;
 * 2. backlog: a second durable started on the stream, topped up to `backlog` events.
 */
async function appEvents(ctx: BenchContext, events: Array<EventEnvelope<typeof EVENT_TYPE>>, backlogEvents: number, logger: Logger) {
  const namespace = `${ctx.namespace}ev`;
  const stream = streamNameFor(namespace, 'SESSIONS');
  const bus = await connectBus({ url: ctx.natsUrl, name: 'bench-events', namespace, logger });
  // Counters and the handler histogram as every service has them (a throwaway registry).
  instrumentBus(bus, new Registry());
  const pool = new pg.Pool({ connectionString: ctx.databases.sessions, max: 4, options: `-c search_path=${OUTBOX_SCHEMA}` });
  try {
    // A stream left by a run that died would deliver its old events to the durables.
    await deleteStream(bus.jsm, stream);
    await ensureStreams(bus, ['SESSIONS']);
    await pool.query(`DROP SCHEMA IF EXISTS ${OUTBOX_SCHEMA} CASCADE; CREATE SCHEMA ${OUTBOX_SCHEMA}; ${OUTBOX_TABLE_SQL}`);
    const subject = subjectFor(namespace, EVENT_TYPE);
    for (let i = 0; i < events.length; i += 5000) {
      // Each row with the ids its event names, as Outbox.enqueue writes it.
      const rows = events.slice(i, i + 5000).map((e) => ({ e, people: peopleNamed(e.data) }));
      await pool.query(
        `INSERT INTO "outbox" ("id", "subject", "payload", "people")
         SELECT (r->'e'->>'id')::uuid, $1, r->'e', ARRAY(SELECT jsonb_array_elements_text(r->'people'))::uuid[] FROM jsonb_array_elements($2::jsonb) r`,
        [subject, JSON.stringify(rows)],
      );
    }
    // A fresh table with statistics, as a service's long-lived one has (autovacuum): the relay's index scan, not a seq scan.
    await pool.query('VACUUM ANALYZE "outbox"');
    const postgres = { ms: 0 };
    const relay = new OutboxRelay({ db: timedSqlClient(pool, postgres), bus, logger, batchSize: RELAY_BATCH });
    const noop = (f: Flow) => ({ [EVENT_TYPE]: async () => f.tick() });

    const handled = flow(events.length, 'app events');
    const consumer = await startConsumer({ bus, stream: 'SESSIONS', durable: DURABLE, logger, handlers: noop(handled) });
    let concurrent: Run;
    try {
      concurrent = await measure(
        events.length,
        handled,
        async () => {
          const published = await relay.drain();
          if (published !== events.length) throw new Error(`relay published ${published} of ${events.length}`);
        },
        true,
      );
    } finally {
      await consumer.stop();
    }
    // Read back for the raw side: the same stream and consumer settings.
    const streamConfig = (await bus.jsm.streams.info(stream)).config;
    const consumerConfig = (await bus.jsm.consumers.info(stream, DURABLE)).config;

    await topUp(bus.js, subject, events.map((e) => JSON.stringify(e)), backlogEvents);
    const drained = flow(backlogEvents, 'app events (backlog)');
    let backlogConsumer: RunningConsumer | undefined;
    try {
      const backlog = await measure(
        backlogEvents,
        drained,
        async () => {
          backlogConsumer = await startConsumer({ bus, stream: 'SESSIONS', durable: `${DURABLE}-backlog`, logger, handlers: noop(drained) });
        },
        false,
      );
      return { concurrent, backlog, relayPostgresMs: postgres.ms, streamConfig, consumerConfig };
    } finally {
      await backlogConsumer?.stop();
    }
  } finally {
    await deleteStream(bus.jsm, stream).catch(() => undefined);
    await bus.close();
    await pool.query(`DROP SCHEMA IF EXISTS ${OUTBOX_SCHEMA} CASCADE`).catch(() => undefined);
    await pool.end();
  }
}

/**
 * Reference: the bare client on a plain stream and durables with the very
 * settings of the app's (copied from JetStream), the same payloads, pull
 * consume() with an ack per message, publishes windowed; the same two runs.
 * Then, for comparison, a sample published one awaited publish at a time, as
 * the relay did before it published by batch (on a subject no durable reads).
 */
async function rawEvents(
  ctx: BenchContext,
  events: Array<EventEnvelope<typeof EVENT_TYPE>>,
  backlogEvents: number,
  settings: Awaited<ReturnType<typeof appEvents>>,
) {
  const namespace = `${ctx.namespace}evraw`;
  const stream = streamNameFor(namespace, 'SESSIONS');
  const subject = subjectFor(namespace, EVENT_TYPE);
  const nc = await connect({ servers: ctx.natsUrl.split(','), name: 'bench-events-raw' });
  const jsm = await nc.jetstreamManager();
  const js = nc.jetstream();
  const payloads = events.map((e) => JSON.stringify(e));
  // startConsumer pulls as many as it may have unacknowledged; so does this.
  const maxAckPending = settings.consumerConfig.max_ack_pending ?? 64;
  const consume = async (durable: string, received: Flow) => {
    await jsm.consumers.add(stream, { ...settings.consumerConfig, name: durable, durable_name: durable, filter_subject: subject });
    const messages = await (await js.consumers.get(stream, durable)).consume({ max_messages: maxAckPending });
    const loop = (async () => {
      for await (const msg of messages) {
        msg.ack();
        received.tick();
      }
    })();
    return async () => {
      await messages.close();
      await loop;
    };
  };
  try {
    await deleteStream(jsm, stream);
    await jsm.streams.add({ ...settings.streamConfig, name: stream, subjects: [`${namespace}.session.>`] });

    const handled = flow(events.length, 'raw events');
    const stop = await consume(DURABLE, handled);
    let concurrent: Run;
    try {
      concurrent = await measure(events.length, handled, () => windowed(payloads.length, RAW_PUBLISH_WINDOW, (i) => js.publish(subject, payloads[i])), true);
    } finally {
      await stop();
    }

    await topUp(js, subject, payloads, backlogEvents);
    const drained = flow(backlogEvents, 'raw events (backlog)');
    let stopBacklog: (() => Promise<void>) | undefined;
    let backlog: Run;
    try {
      backlog = await measure(backlogEvents, drained, async () => void (stopBacklog = await consume(`${DURABLE}-backlog`, drained)), false);
    } finally {
      await stopBacklog?.();
    }

    const sample = payloads.slice(0, SEQUENTIAL_SAMPLE);
    const t = performance.now();
    await windowed(sample.length, 1, (i) => js.publish(`${namespace}.session.sample`, sample[i]));
    const sequentialPublishPerSecond = sample.length / ((performance.now() - t) / 1000);
    return { concurrent, backlog, sequentialPublishPerSecond, sequentialSample: sample.length };
  } finally {
    await deleteStream(jsm, stream).catch(() => undefined);
    await nc.drain();
  }
}

interface FanoutLikeJob {
  kind: 'fanout';
  sessionId: string;
  authorId: string;
  score: number;
  after: null;
}

const jobData = (n: number): FanoutLikeJob[] =>
  Array.from({ length: n }, (_, i) => ({ kind: 'fanout', sessionId: randomUUID(), authorId: randomUUID(), score: Date.now() + i, after: null }));

/**
 * Adds `jobs` in chunks with addBulk while `worker` (already waiting) runs
 * them; counts completions from the worker's own 'completed' events.
 */
async function runJobs(
  queue: bullmq.Queue<FanoutLikeJob>,
  worker: bullmq.Worker<FanoutLikeJob, void>,
  jobs: Array<{ name: string; data: FanoutLikeJob; opts?: bullmq.BulkJobOptions }>,
  what: string,
): Promise<Run> {
  const completed = flow(jobs.length, what);
  worker.on('completed', () => completed.tick());
  try {
    await Promise.all([queue.waitUntilReady(), worker.waitUntilReady()]);
    return await measure(
      jobs.length,
      completed,
      async () => {
        for (let i = 0; i < jobs.length; i += ADD_BULK_CHUNK) await queue.addBulk(jobs.slice(i, i + ADD_BULK_CHUNK));
      },
      true,
    );
  } finally {
    await worker.close();
    // Every key of the queue, completed jobs included.
    await queue.obliterate({ force: true });
    await queue.close();
  }
}

/**
 * App level: the queue as createFanoutQueue makes it, jobs with enqueueFanout's
 * options (job id, attempts, backoff, bounded history), the worker from
 * createQueueWorker with the fan-out worker's settings, and observeQueueWorker.
 */
async function appJobs(ctx: BenchContext, data: FanoutLikeJob[], prefix: string, logger: Logger): Promise<Run> {
  const settings: QueueSettings = { redisUrl: ctx.redisUrl, name: `events-app-${randomUUID().slice(0, 8)}`, prefix, ...FANOUT };
  const queue = new bullmq.Queue<FanoutLikeJob>(settings.name, { connection: bullConnection(settings.redisUrl), prefix: settings.prefix });
  const worker = createQueueWorker<FanoutLikeJob, void>(settings, async () => undefined, logger);
  observeQueueWorker(new Registry(), worker, settings.name);
  const jobs = data.map((d, i) => ({
    name: d.kind,
    data: d,
    // The fan-out's own job options (services/sessions/src/feed/queue.ts), not a copy of them.
    opts: fanoutJobOptions(`${d.sessionId}-${i}`, settings.attempts),
  }));
  return runJobs(queue, worker, jobs, 'app jobs');
}

/** Reference: bare Queue and Worker, default options except the same concurrency (and a connection, which BullMQ needs). */
async function rawJobs(ctx: BenchContext, data: FanoutLikeJob[], prefix: string): Promise<Run> {
  const name = `events-raw-${randomUUID().slice(0, 8)}`;
  const connection = bullConnection(ctx.redisUrl);
  const queue = new bullmq.Queue<FanoutLikeJob>(name, { connection, prefix });
  const worker = new bullmq.Worker<FanoutLikeJob, void>(name, async () => undefined, { connection, prefix, concurrency: FANOUT.concurrency });
  return runJobs(queue, worker, data.map((d) => ({ name: d.kind, data: d })), 'raw jobs');
}

export const benchEvents: Benchmark = async (ctx) => {
  // Warnings and errors only: a failing handler or worker must show, routine logs would cost the bench.
  const logger = createLogger('bench-events', 'warn');
  // Sized for the slow side (the relay, ~1–2.5k events/s on the dev box) to take 10–25 s; the rest take a few seconds each.
  const nEvents = ctx.smoke ? 500 : 25_000;
  const nJobs = ctx.smoke ? 300 : 20_000;
  const backlogEvents = ctx.smoke ? nEvents : BACKLOG_EVENTS;

  const events = envelopes(nEvents);
  ctx.log(`events: ${nEvents} through the outbox relay and startConsumer`);
  const app = await appEvents(ctx, events, backlogEvents, logger);
  ctx.log(`events: ${nEvents} through the bare nats client`);
  const raw = await rawEvents(ctx, events, backlogEvents, app);

  const prefix = `${ctx.namespace}:bull-bench`;
  const data = jobData(nJobs);
  ctx.log(`jobs: ${nJobs} through the runtime's queue wrappers`);
  const appJ = await appJobs(ctx, data, prefix, logger);
  ctx.log(`jobs: ${nJobs} through bare bullmq`);
  const rawJ = await rawJobs(ctx, data, prefix);

  const relaySeconds = app.concurrent.publishSeconds ?? 0;
  // Which end held a concurrent run back: consumers that kept up to the last publish leave it to the publisher.
  const bound = (r: Run, side: string, publisher: string) =>
    (r.handledAtLastPublish ?? 0) >= 0.95 * r.n ? `${side}: bound by ${publisher} (consumer kept up).` : `${side}: consumer behind at the last publish (${r.handledAtLastPublish ?? 0} of ${r.n} handled).`;
  return {
    id: 'events',
    title: 'Events and jobs',
    comparisons: [
      compare({
        measure: `NATS events/s end to end: outbox relay → JetStream → startConsumer, no-op handler (${nEvents} events)`,
        value: Math.round(perSecond(app.concurrent)),
        unit: 'events/s',
        reference: `bare nats client: js.publish (${RAW_PUBLISH_WINDOW} in flight) → pull consume() with ack, same stream and consumer settings`,
        referenceValue: Math.round(perSecond(raw.concurrent)),
        note: `Concurrent: the consumer runs before the first publish; first publish to last event handled. ${bound(app.concurrent, 'App', 'the relay')} ${bound(raw.concurrent, 'Bare', 'publishing')}`,
      }),
      compare({
        measure: `NATS publish-only events/s: OutboxRelay.drain() (batches of ${RELAY_BATCH} read and marked in Postgres, each published before its acks are awaited)`,
        value: Math.round(publishPerSecond(app.concurrent)),
        unit: 'events/s',
        reference: `bare js.publish, ${RAW_PUBLISH_WINDOW} in flight`,
        referenceValue: Math.round(publishPerSecond(raw.concurrent)),
        note: `The runs above, first publish to last publish acknowledged, consumer reading alongside. Bare js.publish one awaited at a time: ${Math.round(raw.sequentialPublishPerSecond)}/s.`,
      }),
      compare({
        measure: `NATS consume-only events/s: startConsumer on a backlog of ${backlogEvents}, no-op handler`,
        value: Math.round(perSecond(app.backlog)),
        unit: 'events/s',
        reference: 'bare pull consume() with ack on the same backlog, same consumer settings',
        referenceValue: Math.round(perSecond(raw.backlog)),
        note: `A second durable on the stream the run above filled (topped up); from creating the consumer to the last event handled (max_ack_pending ${String(app.consumerConfig.max_ack_pending)}).`,
      }),
      compare({
        measure: `BullMQ jobs/s: runtime queue wrappers (createQueueWorker + observeQueueWorker, fan-out options), no-op processor (${nJobs} jobs)`,
        value: Math.round(perSecond(appJ)),
        unit: 'jobs/s',
        reference: 'bare bullmq Queue.addBulk + Worker, default options',
        referenceValue: Math.round(perSecond(rawJ)),
        note: `Concurrency ${FANOUT.concurrency} on both; the worker waits before the first add; addBulk in chunks of ${ADD_BULK_CHUNK}; first add to last job completed.`,
      }),
    ],
    details: {
      events: {
        app: { concurrent: summary(app.concurrent), backlog: summary(app.backlog) },
        raw: { concurrent: summary(raw.concurrent), backlog: summary(raw.backlog) },
        // Where the relay's time went: waiting on Postgres vs. publishing (and its own JS).
        relay: {
          batch: RELAY_BATCH,
          postgresSeconds: round(app.relayPostgresMs / 1000),
          postgresShare: round(relaySeconds > 0 ? app.relayPostgresMs / 1000 / relaySeconds : 0),
        },
        rawSequentialPublish: { events: raw.sequentialSample, perSecond: Math.round(raw.sequentialPublishPerSecond) },
        maxAckPending: app.consumerConfig.max_ack_pending,
        rawPublishWindow: RAW_PUBLISH_WINDOW,
      },
      jobs: { app: summary(appJ), raw: summary(rawJ), concurrency: FANOUT.concurrency, addBulkChunk: ADD_BULK_CHUNK },
    },
  };
};
