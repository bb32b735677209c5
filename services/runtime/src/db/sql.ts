/**
 * The slice of a Prisma client (or interactive transaction) the runtime needs.
 * The runtime cannot import a service's generated client, and needs none of it:
 * the outbox and inbox tables are the same in every service.
 */
export interface SqlClient {
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

export interface TransactionalSqlClient extends SqlClient {
  $transaction<R>(fn: (tx: SqlClient) => Promise<R>, options?: { timeout?: number; maxWait?: number }): Promise<R>;
}
