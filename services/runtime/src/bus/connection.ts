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
  const jsm = await nc.jetstreamManager();
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
    try {
      await bus.jsm.streams.info(config.name);
      await bus.jsm.streams.update(config.name, config);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await bus.jsm.streams.add(config);
    }
  }
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
