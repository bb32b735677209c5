import pg from 'pg';
import type { SqlClient, TransactionalSqlClient } from '../src/db/sql';

/** The runtime's SQL interface over plain pg, for its own tests (services pass their Prisma client). */
export function pgSqlClient(pool: pg.Pool): TransactionalSqlClient {
  const on = (q: pg.Pool | pg.PoolClient): SqlClient => ({
    async $executeRawUnsafe(query, ...values) {
      return (await q.query(query, values)).rowCount ?? 0;
    },
    async $queryRawUnsafe<T>(query: string, ...values: unknown[]) {
      return (await q.query(query, values)).rows as T;
    },
  });
  return {
    ...on(pool),
    async $transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(on(client));
        await client.query('COMMIT');
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
