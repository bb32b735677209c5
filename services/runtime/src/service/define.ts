import type { ProcessName } from '@hoptrack/proto';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Bus } from '../bus/connection';
import type { RunningConsumer } from '../bus/consumer';
import type { OutboxRelay } from '../bus/outbox';
import type { ServiceMetrics } from '../http/metrics';
import type { ReadinessCheck, ServiceApp } from '../http/server';
import type { Closer, ServiceConfig } from '../lifecycle';
import type { Pruner } from '../db/retention';

/** What a service's connect step opens: at least the bus; closed last, after everything that uses it. */
export interface ServiceConnections {
  bus: Bus;
  /**
   * How /readyz checks what else it opened (its database, Redis, the object
   * store), by name; the bus is checked as `nats` without saying.
   */
  readiness?: Record<string, ReadinessCheck>;
  close(): Promise<void>;
}

/** What a service's build step assembles: its HTTP app, and the relay of its outbox when it publishes. */
export interface ServiceParts {
  app: ServiceApp;
  relay?: OutboxRelay | undefined;
}

/** A service's database as a part of its definition: where it is, its own migrations and the parts it includes (the bus's tables, the audience's). */
export interface DatabasePart<C> {
  url: (config: C) => string;
  /**
   * Where its migrations run, when not at `url`: migrations hold a
   * session-level advisory lock and run DDL, which a transaction-pooling
   * PgBouncer in front of `url` would split over server connections
   * (deploy/k8s: directDatabaseUrl, DATABASE_MIGRATION_URL).
   */
  migrationUrl?: (config: C) => string;
  /** The folder of the service's own migrations. */
  migrations: string;
  /** More folders of migrations applied with them in one order (busMigrationDirs, audienceMigrationDirs). */
  include?: readonly string[];
}

export interface ConnectContext<C> {
  config: C;
  logger: Logger;
}

export interface BuildContext<C, K> extends ConnectContext<C> {
  metrics: ServiceMetrics;
  /** The service's clock: the system clock in production, a test's own clock in tests. */
  clock: () => Date;
  connections: K;
}

export interface RunContext<C, K, P> extends BuildContext<C, K> {
  parts: P;
  /** Keeps the platform's stores in the service's database bounded (db/retention.ts); there when it has a database. */
  pruner?: Pruner;
  /** Wakes the outbox relay: a consumer that wrote events in its transaction calls it once they are committed. */
  poke(): void;
}

export type ConsumerStarter<X> = (context: X) => Promise<RunningConsumer | RunningConsumer[]>;

export interface ServiceDefinition<S extends z.ZodType<ServiceConfig> = z.ZodType<ServiceConfig>, K extends ServiceConnections = ServiceConnections, P extends ServiceParts = ServiceParts> {
  /** The process's name: its contract in proto (PROCESS_CONTRACTS), its logs' `service`, its metrics' label. */
  name: ProcessName;
  configSchema: S;
  /**
   * Its database, created and migrated before `connect` (under the migrations'
   * advisory lock, so copies starting together wait for one another); the
   * operators' migration Job (infra/ops/migrate.ts) applies the same.
   */
  database?: DatabasePart<z.infer<S>>;
  /** Opens what the service talks to (its database already migrated, the bus with its streams). */
  connect(context: ConnectContext<z.infer<S>>): Promise<K>;
  /** Assembles the app and its domain from the connections; starts nothing. */
  build(context: BuildContext<z.infer<S>, K>): P | Promise<P>;
  /**
   * Work of its own that starts before the port opens and stops first at
   * shutdown: BullMQ workers, live streams, presence. Tests may leave it out.
   */
  workers?: (context: RunContext<z.infer<S>, K, P>) => Closer[] | Promise<Closer[]>;
  /**
   * Its durable event consumers, by name, started once the port is open; what they read is held to its contract in proto.
   * Write the first one as an arrow function of the context: that is what makes TypeScript type the helpers'
   * contexts (erasureConsumer, exportConsumer) after connect and build, rather than before.
   */
  consumers?: Record<string, ConsumerStarter<RunContext<z.infer<S>, K, P>>>;
}

/**
 * One declaration per service: `runService(definition)` runs it in
 * production and `startService(definition, overrides)` (@hoptrack/testing)
 * starts the same one in tests. The name is the process's contract in proto
 * (PROCESS_CONTRACTS): what its consumers may read is held to it when it starts.
 * An account-lifecycle part (erase, export) is a consumer like the others,
 * made with the audience module's `erasureConsumer` / `exportConsumer`.
 */
export function defineService<S extends z.ZodType<ServiceConfig>, K extends ServiceConnections, P extends ServiceParts>(
  definition: ServiceDefinition<S, K, P>,
): ServiceDefinition<S, K, P> {
  return definition;
}
