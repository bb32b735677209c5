import type { StreamName } from '@hoptrack/proto';
import type { Logger } from 'pino';
import type pg from 'pg';
import { connectBus, ensureStreams, type Bus, type BusOptions } from './bus/connection';
import { sharedPool } from './db/pg-sql-client';
import type { TransactionalSqlClient } from './db/sql';
import type { ReadinessCheck } from './http/readiness';

export interface DatabaseAndBus<P> {
  prisma: P;
  bus: Bus;
  /** /readyz's look at the database (the bus is checked by the runtime itself). */
  readiness: Record<string, ReadinessCheck>;
  /** Closes the bus first (no new events to handle), then the database. */
  close(): Promise<void>;
}

/**
 * Joins a service's (migrated) database client with its bus connection, the
 * streams it publishes to or consumes from ensured: what every event-driven
 * service opens at start-up and closes at shutdown.
 */
export async function withBus<P extends { $disconnect(): Promise<void>; $queryRawUnsafe(query: string): Promise<unknown> }>(
  prisma: P,
  /** `pool`: the pg pool Prisma's adapter was given (`sharedPool`), ended after Prisma disconnects. */
  options: BusOptions & { streams: StreamName[]; pool?: { end(): Promise<void> } },
): Promise<DatabaseAndBus<P>> {
  const bus = await connectBus(options);
  await ensureStreams(bus, options.streams);
  return {
    prisma,
    bus,
    readiness: { postgres: () => prisma.$queryRawUnsafe('SELECT 1') },
    async close() {
      await bus.close();
      await prisma.$disconnect();
      await options.pool?.end();
    },
  };
}

export interface PooledDatabaseAndBus<P> extends DatabaseAndBus<P> {
  /** Plain SQL over the pool Prisma uses (`sharedPool`): the event consumers' inbox transactions. */
  sql: TransactionalSqlClient;
  /** The pool itself, for another client over it (a service's named hot reads). */
  pool: pg.Pool;
}

/**
 * withBus, with Prisma made over a pg pool the service also reaches by plain
 * SQL (one connection budget, DATABASE_POOL_MAX): `makePrisma` is
 * `(pool) => new PrismaClient({ adapter: new PrismaPg(pool) })`.
 */
export async function withPooledBus<P extends { $disconnect(): Promise<void>; $queryRawUnsafe(query: string): Promise<unknown> }>(
  makePrisma: (pool: pg.Pool) => P,
  database: { url: string; poolMax: number; onPoolError?: (err: Error) => void },
  options: BusOptions & { streams: StreamName[] },
): Promise<PooledDatabaseAndBus<P>> {
  const shared = sharedPool(database.url, { poolMax: database.poolMax, ...(database.onPoolError ? { onPoolError: database.onPoolError } : {}) });
  const connections = await withBus(makePrisma(shared.pool), { ...options, pool: shared });
  return { ...connections, sql: shared.sql, pool: shared.pool };
}
