import { PrismaPg } from '@prisma/adapter-pg';
import { pgSqlClient, type SqlClient } from '@hoptrack/runtime';
import pg from 'pg';
import { Prisma, PrismaClient } from './generated/prisma/client';

export { Prisma, PrismaClient };
export type Db = PrismaClient | Prisma.TransactionClient;

export interface Database {
  prisma: PrismaClient;
  /**
   * The inbox's reads (a page, the unread count) sent by name over the same
   * pool: the page's statement took about as long to plan as to run.
   */
  reads: SqlClient;
  /** Ends the pool Prisma and the reads share (after Prisma disconnected). */
  endPool(): Promise<void>;
}

/** `poolMax`: connections this process may hold (DATABASE_POOL_MAX); replicas × it must stay under Postgres' max_connections. */
export function createDatabase(connectionString: string, poolMax = 10, onPoolError?: (err: Error) => void): Database {
  const pool = new pg.Pool({ connectionString, max: poolMax });
  pool.on('error', (err) => onPoolError?.(err));
  return { prisma: new PrismaClient({ adapter: new PrismaPg(pool) }), reads: pgSqlClient(pool, undefined, { named: true }), endPool: () => pool.end() };
}
