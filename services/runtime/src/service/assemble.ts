import { PROCESS_CONTRACTS, type EventType, type ProcessName } from '@hoptrack/proto';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { RunningConsumer } from '../bus/consumer';
import { instrumentTokenVerifications } from '../auth/metrics';
import { instrumentBus } from '../bus/metrics';
import { prepareDatabase } from '../db/prepare';
import { platformMigrationDirs } from '../db/platform-parts';
import { startPruner } from '../db/retention';
import { addReadinessChecks } from '../http/server';
import type { ServiceMetrics } from '../http/metrics';
import type { Closer, ServiceConfig } from '../lifecycle';
import type { DatabasePart, RunContext, ServiceConnections, ServiceDefinition, ServiceParts } from './define';

export interface AssembleOptions<C, K> {
  config: C;
  logger: Logger;
  metrics: ServiceMetrics;
  clock?: () => Date;
  /** In place of the definition's connect (a test's own statement hook, say). */
  connect?: (context: { config: C; logger: Logger }) => Promise<K>;
  /** Runs once connected (migrated), before the build: a test empties its tables here. */
  prepare?: (connections: K) => Promise<void>;
  /** Which consumers start: all of them (production), none, or these by name. */
  consumers?: 'all' | 'none' | readonly string[];
  /** Whether the definition's own workers start (production: yes). */
  workers?: boolean;
}

export interface AssembledService<C, K, P> {
  context: RunContext<C, K, P>;
  /** Starts the outbox relay and the chosen consumers, and holds what they read to the process's contract. */
  start(): Promise<RunningConsumer[]>;
  /** In shutdown order: the workers, the consumers, the relay, the connections. */
  closers: Closer[];
}

/**
 * Connects, builds and readies a definition's workers; `start` begins its
 * background work. runService and the tests' startService both come here,
 * so a test runs the wiring production runs.
 */
export async function assembleService<S extends z.ZodType<ServiceConfig>, K extends ServiceConnections, P extends ServiceParts>(
  definition: ServiceDefinition<S, K, P>,
  options: AssembleOptions<z.infer<S>, K>,
): Promise<AssembledService<z.infer<S>, K, P>> {
  const { config, logger, metrics } = options;
  const clock = options.clock ?? (() => new Date());
  if (definition.database) await migrateDatabase(definition.database, config, logger);
  const connections = await (options.connect ?? ((c) => definition.connect(c)))({ config, logger });
  await options.prepare?.(connections);
  const parts = await definition.build({ config, logger, metrics, clock, connections });
  // Readiness and metrics follow from what it connected to: the app lists neither again.
  addReadinessChecks(parts.app, { ...connections.readiness, nats: () => connections.bus.check() });
  instrumentBus(connections.bus, metrics.registry);
  instrumentTokenVerifications(metrics.registry);
  parts.relay?.registerMetrics(metrics.registry);
  // Its database's platform stores (outbox, inbox, idempotent answers) stay bounded: pruned past their use.
  const pruner = definition.database
    ? startPruner({ url: definition.database.url(config), logger: logger.child({ component: 'pruner' }), registry: metrics.registry, clock })
    : undefined;
  const context: RunContext<z.infer<S>, K, P> = { config, logger, metrics, clock, connections, parts, poke: () => parts.relay?.poke(), ...(pruner ? { pruner } : {}) };
  const workers = options.workers === false ? [] : ((await definition.workers?.(context)) ?? []);

  const chosen = options.consumers ?? 'all';
  const starters = Object.entries(definition.consumers ?? {}).filter(([name]) => chosen === 'all' || (chosen !== 'none' && chosen.includes(name)));
  if (Array.isArray(chosen)) {
    const unknown = chosen.filter((name) => !(name in (definition.consumers ?? {})));
    if (unknown.length > 0) throw new Error(`${definition.name} has no consumers named ${unknown.join(', ')}`);
  }
  let running: RunningConsumer[] = [];
  return {
    context,
    async start() {
      parts.relay?.start();
      for (const [, startOne] of starters) running = running.concat(await startOne(context));
      checkSubscriptions(definition.name, subscribedTypes(connections), chosen === 'all');
      return running;
    },
    closers: [
      ...workers,
      { name: 'event consumers', close: () => Promise.all(running.map((c) => c.stop())) },
      ...(parts.relay ? [{ name: 'outbox relay', close: () => (parts.relay as NonNullable<P['relay']>).stop() }] : []),
      ...(pruner ? [{ name: 'pruner', close: () => pruner.stop() }] : []),
      { name: 'connections', close: () => connections.close() },
    ],
  };
}

/** Creates a service's database if missing and applies its pending migrations, its parts' included: start-up, seeds and the operators' Job. */
export function migrateDatabase<C>(part: DatabasePart<C>, config: C, logger: Logger): Promise<void> {
  // The platform's parts in every service's database (idempotent requests), then the definition's own.
  return prepareDatabase((part.migrationUrl ?? part.url)(config), part.migrations, logger, { include: [...platformMigrationDirs(), ...(part.include ?? [])] });
}

function subscribedTypes(connections: ServiceConnections): Map<EventType, string[]> {
  const byType = new Map<EventType, string[]>();
  for (const consumer of connections.bus.consumers) {
    for (const type of consumer.types) byType.set(type, [...(byType.get(type) ?? []), consumer.durable]);
  }
  return byType;
}

/**
 * What the process's consumers read must be what its contract in proto
 * declares: an undeclared type would be a consumer missing from the event
 * catalogue; with every consumer started, a declared type nobody reads is a
 * promise broken.
 */
export function checkSubscriptions(name: ProcessName, subscribed: Map<EventType, string[]>, complete: boolean): void {
  const declared = new Set<EventType>(PROCESS_CONTRACTS[name].consumes);
  const undeclared = [...subscribed.entries()].filter(([type]) => !declared.has(type)).map(([type, durables]) => `${type} (read by ${durables.join(', ')})`);
  const unread = complete ? [...declared].filter((type) => !subscribed.has(type)) : [];
  const problems = [
    ...(undeclared.length ? [`reads what its contract in proto (PROCESS_CONTRACTS.${name}.consumes) does not declare: ${undeclared.join('; ')}`] : []),
    ...(unread.length ? [`declares what none of its consumers reads: ${unread.join(', ')}`] : []),
  ];
  if (problems.length > 0) throw new Error(`${name} ${problems.join('; and ')}`);
}
