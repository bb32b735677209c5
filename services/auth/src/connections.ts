import { processStreams } from '@hoptrack/proto';
import { connectBus, ensureStreams, sharedPool, type Bus, type Logger, packageDir, type DatabasePart, directDatabaseUrl, type ReadinessCheck, type TransactionalSqlClient } from '@hoptrack/runtime';
import { Redis } from 'ioredis';
import path from 'node:path';
import type { AuthConfig } from './config';
import { createPrisma, type PrismaClient } from './db';
import { databaseRepository } from './repositories/database.repository';
import { ErasureLedger, ledgerUrlFor } from './repositories/erasure-ledger.repository';

export const migrationsDir = path.join(packageDir('@hoptrack/auth'), 'prisma/migrations');

/**
 * Its database as a part of the definition: the service's own migrations.
 * The runtime creates and migrates it before connecting (assembleService); the operators' Job (infra/ops/migrate.ts) applies the same.
 */
export const database: DatabasePart<AuthConfig> = { url: (config) => config.DATABASE_URL, migrationUrl: directDatabaseUrl, migrations: migrationsDir, include: [] };

export interface AuthConnections {
  prisma: PrismaClient;
  /** Plain SQL over Prisma's pool: the outbox relay. */
  sql: TransactionalSqlClient;
  bus: Bus;
  redis: Redis;
  /** Ids of deleted accounts, outside the backed-up data: a restore erases them again. */
  ledger: ErasureLedger;
  /** /readyz's look at the database and Redis (the runtime checks the bus). */
  readiness: Record<string, ReadinessCheck>;
  close(): Promise<void>;
}

/** Opens what the auth service depends on, migrating its database first. */
export async function openConnections(config: AuthConfig, logger: Logger): Promise<AuthConnections> {
  const pool = sharedPool(config.DATABASE_URL, { poolMax: config.DATABASE_POOL_MAX, onPoolError: (err) => logger.warn({ err }, 'idle database connection lost; the pool reconnects') });
  const prisma = createPrisma(pool.pool);
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2, lazyConnect: false });
  redis.on('error', (err) => logger.warn({ err }, 'redis error'));
  const bus = await connectBus({ url: config.NATS_URL, name: 'auth', namespace: config.BUS_NAMESPACE, logger, streamReplicas: config.NATS_STREAM_REPLICAS });
  await ensureStreams(bus, processStreams('auth'));
  const ledger = new ErasureLedger(ledgerUrlFor(config.DATABASE_URL, config.ERASURE_LEDGER_URL), logger);
  await ledger.prepare();
  return {
    prisma,
    sql: pool.sql,
    bus,
    redis,
    ledger,
    readiness: { postgres: () => databaseRepository.ping(prisma), redis: () => redis.ping() },
    async close() {
      await bus.close();
      redis.disconnect();
      await ledger.close();
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
