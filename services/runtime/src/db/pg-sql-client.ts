import { createHash } from 'node:crypto';
import pg from 'pg';
import type { SqlClient, TransactionalSqlClient } from './sql';

/**
 * The runtime's SQL interface over plain pg, for the runtime's own tests, the
 * bench, and a service's hot reads (services pass their Prisma client
 * otherwise). `observe` wraps every call to Postgres (the bench adds up the
 * time spent waiting on it). `named`: every statement is sent by a name made
 * from its text, so Postgres plans it once per connection rather than on
 * every call — for statements whose planning costs about as much as running
 * them (notifications' inbox page). Needs a direct connection or PgBouncer
 * ≥ 1.21 (docs/scaling.md).
 */
export function pgSqlClient(
  pool: pg.Pool,
  observe: <T>(call: Promise<T>) => Promise<T> = (call) => call,
  options: { named?: boolean } = {},
): TransactionalSqlClient {
  const timed = observe;
  const names = new Map<string, string>();
  const config = (text: string, values: unknown[]): pg.QueryConfig => {
    if (!options.named) return { text, values };
    let name = names.get(text);
    if (!name) names.set(text, (name = `s${createHash('sha1').update(text).digest('hex').slice(0, 16)}`));
    return { name, text, values };
  };
  const on = (q: pg.Pool | pg.PoolClient): SqlClient => ({
    async $executeRawUnsafe(query, ...values) {
      return (await timed(q.query(config(query, values)))).rowCount ?? 0;
    },
    async $queryRawUnsafe<T>(query: string, ...values: unknown[]) {
      return (await timed(q.query(config(query, values)))).rows as T;
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
