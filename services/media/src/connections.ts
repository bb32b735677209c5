import { processStreams } from '@hoptrack/proto';
import { connectBus, ensureStreams, sharedPool, type AudiencePart, type TransactionalSqlClient, type Bus, type Logger, packageDir, audienceMigrationDirs, type DatabasePart, directDatabaseUrl, type ReadinessCheck } from '@hoptrack/runtime';
import path from 'node:path';
import type { MediaConfig } from './config';
import { createPrisma, type PrismaClient } from './db';
import { databaseRepository } from './repositories/database.repository';
import { ObjectStore } from './storage/object-store';

export const migrationsDir = path.join(packageDir('@hoptrack/media'), 'prisma/migrations');
/** The audience tables this service keeps: people (privacy, token versions) and the graph (friendships, blocks). */
export const AUDIENCE: readonly AudiencePart[] = ['people', 'graph'];

/**
 * Its database as a part of the definition: the service's own migrations and the audience tables it keeps.
 * The runtime creates and migrates it before connecting (assembleService); the operators' Job (infra/ops/migrate.ts) applies the same.
 */
export const database: DatabasePart<MediaConfig> = { url: (config) => config.DATABASE_URL, migrationUrl: directDatabaseUrl, migrations: migrationsDir, include: audienceMigrationDirs(AUDIENCE) };

export interface MediaConnections {
  prisma: PrismaClient;
  /** Plain SQL over Prisma's pool: the outbox relay. */
  sql: TransactionalSqlClient;
  bus: Bus;
  store: ObjectStore;
  /** /readyz's look at the database and the object store (the runtime checks the bus). */
  readiness: Record<string, ReadinessCheck>;
  close(): Promise<void>;
}

export function createObjectStore(config: MediaConfig): ObjectStore {
  return new ObjectStore(
    config.S3_ENDPOINT,
    { accessKey: config.S3_ACCESS_KEY, secretKey: config.S3_SECRET_KEY, region: config.S3_REGION },
    config.S3_BUCKET,
    { requestTimeoutMs: config.S3_REQUEST_TIMEOUT_MS },
  );
}

/** Database (migrated), bus (streams ensured) and the bucket (created): what the API and the worker both need. */
export async function openConnections(config: MediaConfig, logger: Logger, name: string): Promise<MediaConnections> {
  const pool = sharedPool(config.DATABASE_URL, { poolMax: config.DATABASE_POOL_MAX, onPoolError: (err) => logger.warn({ err }, 'idle database connection lost; the pool reconnects') });
  const prisma = createPrisma(pool.pool);
  const bus = await connectBus({ url: config.NATS_URL, name, namespace: config.BUS_NAMESPACE, logger, streamReplicas: config.NATS_STREAM_REPLICAS });
  await ensureStreams(bus, processStreams('media', 'media-worker'));
  const store = createObjectStore(config);
  await store.ensureBucket(config.S3_REGION);
  return {
    prisma,
    sql: pool.sql,
    bus,
    store,
    readiness: { postgres: () => databaseRepository.ping(prisma), s3: () => store.check() },
    async close() {
      await bus.close();
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
