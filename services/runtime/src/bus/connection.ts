import {
  connect,
  nanos,
  RetentionPolicy,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
  type NatsConnection,
  type PubAck,
} from 'nats';
import { streamNameFor, streams, type StreamName } from '@hoptrack/proto';
import type { Logger } from 'pino';
import type { BusMetrics, WatchedConsumer } from './metrics';

export interface Bus {
  namespace: string;
  /** Copies of each stream this process asks JetStream for when it ensures them. */
  streamReplicas: number;
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  /** Publishes one serialized envelope; `msgId` makes JetStream drop a re-publish inside the duplicate window. */
  publish(subject: string, payload: string, msgId: string): Promise<PubAck>;
  /** Readiness: the server answers a round trip. */
  check(): Promise<void>;
  /** Set by `instrumentBus`; absent in processes (and tests) that do not export metrics. */
  metrics?: BusMetrics;
  /** The durable consumers this process runs (startConsumer adds them), for the lag gauges. */
  consumers: WatchedConsumer[];
  /** The streams this process ensured (publishes to or reads), for the stream gauges. */
  streams: Set<StreamName>;
  close(): Promise<void>;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Consumers that were down longer than this must rebuild from their owner; a week is the operators' window. */
export const STREAM_MAX_AGE_MS = 7 * DAY_MS;
/** Dead letters wait for an operator longer than events wait for consumers. */
const DEADLETTER_MAX_AGE_MS = 30 * DAY_MS;
/** JetStream forgets msg ids after this; the outbox relay re-publishes well inside it. */
const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;

export interface BusOptions {
  url: string;
  name: string;
  namespace: string;
  logger: Logger;
  /** Copies JetStream keeps of each stream (NATS_STREAM_REPLICAS): 1 on one server, 3 on a three-node cluster. */
  streamReplicas?: number;
}

export async function connectBus(options: BusOptions): Promise<Bus> {
  const nc = await connect({
    servers: options.url.split(','),
    name: options.name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1000,
  });
  (async () => {
    for await (const status of nc.status()) {
      options.logger.info({ nats: status.type, data: String(status.data ?? '') }, 'nats status');
    }
  })().catch(() => undefined);
  const jsm = await retryJetStream(() => nc.jetstreamManager());
  const js = nc.jetstream();
  return {
    namespace: options.namespace,
    streamReplicas: options.streamReplicas ?? 1,
    nc,
    js,
    jsm,
    publish: (subject, payload, msgId) => js.publish(subject, payload, { msgID: msgId }),
    consumers: [],
    streams: new Set(),
    async check() {
      await nc.flush();
    },
    async close() {
      if (!nc.isClosed()) await nc.drain();
    },
  };
}

/** Creates or updates the namespace's streams; every process that publishes or consumes calls it at start. */
export async function ensureStreams(bus: Bus, names: StreamName[] = Object.keys(streams) as StreamName[]): Promise<void> {
  for (const stream of names) {
    bus.streams.add(stream);
    const config = {
      name: streamNameFor(bus.namespace, stream),
      subjects: streams[stream].subjects.map((s) => `${bus.namespace}.${s}`),
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      max_age: nanos(stream === 'DEADLETTER' ? DEADLETTER_MAX_AGE_MS : STREAM_MAX_AGE_MS),
      duplicate_window: nanos(DUPLICATE_WINDOW_MS),
      num_replicas: bus.streamReplicas,
    };
    await retryJetStream(async () => {
      try {
        const current = (await bus.jsm.streams.info(config.name)).config;
        // An update is a proposal to the cluster's meta leader: made only when something changed, so
        // a dozen processes starting together (each ensuring its streams and DEADLETTER) ask for none.
        const same =
          current.subjects?.join() === config.subjects.join() &&
          current.max_age === config.max_age &&
          current.duplicate_window === config.duplicate_window &&
          current.num_replicas === config.num_replicas &&
          current.storage === config.storage &&
          current.retention === config.retention;
        if (!same) await bus.jsm.streams.update(config.name, config);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        await bus.jsm.streams.add(config);
      }
    });
  }
}

/** How long a JetStream API call at start-up is tried before the process gives up (and its orchestrator restarts it). */
const JETSTREAM_RETRY_MS = 60_000;

/**
 * JetStream's API on a cluster (NATS_STREAM_REPLICAS=3) does not answer
 * while a leader is being elected — the meta leader when the cluster starts
 * or a node is lost, a stream's when its leader's node goes — nor while it
 * is swamped: a dozen processes starting together, each creating streams and
 * consumers, made requests time out after 5 s and killed a service at start
 * (issue 38, item 5). Such failures are retried with backoff for up to
 * `boundMs`; any other error (a bad config, not found) is thrown at once.
 */
export async function retryJetStream<T>(call: () => Promise<T>, boundMs = JETSTREAM_RETRY_MS): Promise<T> {
  const deadline = Date.now() + boundMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (!isTransient(err) || Date.now() >= deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.min(4000, 250 * 2 ** attempt)));
    }
  }
}

/**
 * JetStream API error codes that mean "not now": the cluster is unavailable
 * (10008), no peers to place replicas on while nodes are down (10005), a
 * stream or consumer offline while its Raft group has no leader (10118, 10119).
 */
const TRANSIENT_API_ERRORS = new Set([10005, 10008, 10118, 10119]);

function isTransient(err: unknown): boolean {
  const { code, api_error: api } = err as { code?: string; api_error?: { code?: number; err_code?: number } };
  // The client's own: no answer in time, or no responders (the API's subjects not served right now).
  if (code === 'TIMEOUT' || code === '503') return true;
  return api?.code === 503 || TRANSIENT_API_ERRORS.has(api?.err_code ?? 0);
}

export async function deleteStreams(bus: Bus): Promise<void> {
  // With the exports object store's stream (services/runtime/src/audience/export.ts).
  const names = [...(Object.keys(streams) as StreamName[]).map((s) => streamNameFor(bus.namespace, s)), `OBJ_${bus.namespace.replace(/[^A-Za-z0-9_-]/g, '_')}_EXPORTS`];
  for (const name of names) {
    try {
      await bus.jsm.streams.delete(name);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}

function isNotFound(err: unknown): boolean {
  return err instanceof Error && /not found/i.test(err.message);
}
