import { assembleService, createMetrics, deleteStreams, type RunContext, type RunningConsumer, type ServiceConfig, type ServiceConnections, type ServiceDefinition, type ServiceParts } from '@hoptrack/runtime';
import type { z } from 'zod';
import { testNamespace } from './environment';
import { memoryLogger } from './memory-logger';

export interface StartServiceOptions<C, K> {
  /** Configuration over the test defaults (test mode, a private bus namespace, the local NATS and Redis, quick outbox polls); DATABASE_URL at least. */
  env: Record<string, string>;
  /** The log level of the in-memory log (`logs`). */
  logLevel?: string;
  clock?: () => Date;
  /** In place of the definition's connect. */
  connect?: (context: { config: C; logger: import('pino').Logger }) => Promise<K>;
  /** Once connected (migrated) and before the build: empty the tables here. */
  prepare?: (connections: K) => Promise<void>;
  /** Which of the definition's consumers start: all (the default, as in production), none, or these. */
  consumers?: 'all' | 'none' | readonly string[];
  /** Whether the definition's workers start (default: yes). */
  workers?: boolean;
  /** Whether the outbox relay and consumers start once the app is ready (default: yes). */
  start?: boolean;
  /**
   * Whether `close` deletes the namespace's streams (default: yes). A copy of a
   * service sharing another's namespace (a second replica, a worker beside
   * its API) leaves them to the one that made the namespace.
   */
  deleteStreams?: boolean;
}

export interface StartedService<C, K, P> extends RunContext<C, K, P> {
  namespace: string;
  /** Every line the service logged, parsed. */
  logs: Array<Record<string, unknown>>;
  consumers: RunningConsumer[];
  /** Starts the relay and the consumers, when `start: false` held them back. */
  start(): Promise<RunningConsumer[]>;
  /** Stops it as production does (workers, consumers, relay), deletes its namespace's streams, closes its connections; once. */
  close(): Promise<void>;
}

/**
 * Starts a service from the definition production runs (runService), with a
 * test's overrides, its app ready for `inject`: the tests do not wire the
 * service a second time.
 */
export async function startService<S extends z.ZodType<ServiceConfig>, K extends ServiceConnections, P extends ServiceParts>(
  definition: ServiceDefinition<S, K, P>,
  options: StartServiceOptions<z.infer<S>, K>,
): Promise<StartedService<z.infer<S>, K, P>> {
  const namespace = options.env.BUS_NAMESPACE ?? testNamespace(definition.name);
  const config = definition.configSchema.parse({
    NODE_ENV: 'test',
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    OUTBOX_POLL_MS: '100',
    ...options.env,
    BUS_NAMESPACE: namespace,
  }) as z.infer<S>;
  const { logger, lines } = memoryLogger(definition.name, options.logLevel);
  const assembled = await assembleService(definition, {
    config,
    logger,
    metrics: createMetrics(definition.name),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.connect ? { connect: options.connect } : {}),
    ...(options.prepare ? { prepare: options.prepare } : {}),
    ...(options.consumers ? { consumers: options.consumers } : {}),
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
  });
  const { context } = assembled;
  let closed = false;
  await context.parts.app.ready();
  const started: StartedService<z.infer<S>, K, P> = {
    ...context,
    namespace,
    logs: lines,
    consumers: [],
    async start() {
      started.consumers = await assembled.start();
      return started.consumers;
    },
    async close() {
      if (closed) return;
      closed = true;
      await context.parts.app.close();
      const connections = assembled.closers.at(-1);
      for (const closer of assembled.closers.slice(0, -1)) await closer.close();
      if (options.deleteStreams !== false) await deleteStreams(context.connections.bus);
      await connections?.close();
    },
  };
  if (options.start !== false) await started.start();
  return started;
}
