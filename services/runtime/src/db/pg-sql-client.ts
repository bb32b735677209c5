import pg from 'pg';
import type { SqlClient, TransactionalSqlClient } from './sql';

/**
 * The runtime's SQL interface over plain pg, for the runtime's own tests and
 * the bench (services pass their Prisma client). `observe` wraps every call
 * to Postgres (the bench adds up the time spent waiting on it).
 */
export function pgSqlClient(pool: pg.Pool, observe: <T>(call: Promise<T>) => Promise<T> = (call) => call): TransactionalSqlClient {
  const timed = observe;
  const on = (q: pg.Pool | pg.PoolClient): SqlClient => ({
    async $executeRawUnsafe(query, ...values) {
      return (await timed(q.query(query, values))).rowCount ?? 0;
    },
    async $queryRawUnsafe<T>(query: string, ...values: unknown[]) {
      return (await timed(q.query(query, values))).rows as T;
    },
  });
  return {
    ...on(pool),
    async $transaction(fn) {
      const client = await timed(pool.connect());
      try {
        await timed(client.query('BEGIN'));
        const result = await fn(on(client));
        await timed(client.query('COMMIT'));
        return result;
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      } finally {
        client.release();
      }
    },
  };
}
