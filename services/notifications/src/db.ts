import { PrismaPg } from '@prisma/adapter-pg';
import { pgSqlClient, sharedPool, type SqlClient, type TransactionalSqlClient } from '@hoptrack/runtime';
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
  /** Plain SQL and transactions over the same pool: the inbox consumers' transactions (Prisma's cost twice theirs). */
  sql: TransactionalSqlClient;
  /** Ends the pool Prisma and the reads share (after Prisma disconnected). */
  endPool(): Promise<void>;
}

/** `poolMax`: connections this process may hold (DATABASE_POOL_MAX); replicas × it must stay under Postgres' max_connections. */
export function createDatabase(connectionString: string, poolMax = 10, onPoolError?: (err: Error) => void): Database {
  const shared = sharedPool(connectionString, { poolMax, ...(onPoolError ? { onPoolError } : {}) });
  return {
    prisma: new PrismaClient({ adapter: new PrismaPg(shared.pool) }),
    reads: pgSqlClient(shared.pool, undefined, { named: true }),
    sql: shared.sql,
    endPool: shared.end,
  };
}
