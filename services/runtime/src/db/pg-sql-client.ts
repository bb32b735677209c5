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
      // A connection whose ROLLBACK failed (Postgres restarted under it) is
      // released with that error, so the pool drops it instead of lending it again.
      let broken: Error | undefined;
      // A connection lost between two statements (the relay's transaction waits on NATS
      // between its read and its mark) is reported as the client's 'error' event, which
      // the pool listens to only while the client is idle: unheard, it would end the process.
      const lost = (err: Error) => (broken = err);
      client.on('error', lost);
      try {
        await timed(client.query('BEGIN'));
        const result = await fn(on(client));
        await timed(client.query('COMMIT'));
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch((rollbackErr: unknown) => {
          broken = rollbackErr instanceof Error ? rollbackErr : new Error(String(rollbackErr));
        });
        throw err;
      } finally {
        client.off('error', lost);
        client.release(broken);
      }
    },
  };
}

export interface SharedPool {
  /** For Prisma's driver adapter (`new PrismaPg(pool)`): one connection budget for both. */
  pool: pg.Pool;
  /**
   * Plain SQL and transactions over the same pool, for paths where Prisma's
   * own cost shows: an event consumer's inbox transaction costs about 0.9
   * CPU-ms through Prisma's interactive transaction and 0.35 over pg
   * (docs/benchmarks.md), and every session created runs three of them.
   */
  sql: TransactionalSqlClient;
  /** Ends the pool, after Prisma has disconnected. */
  end(): Promise<void>;
}

/** A service's pg pool, shared by its Prisma client and its plain SQL. `poolMax`: DATABASE_POOL_MAX. */
export function sharedPool(connectionString: string, options: { poolMax?: number; onPoolError?: (err: Error) => void } = {}): SharedPool {
  const pool = new pg.Pool({ connectionString, max: options.poolMax ?? 10 });
  // An idle connection's error (Postgres restarted): the pool drops it and reconnects on demand.
  pool.on('error', (err) => options.onPoolError?.(err));
  return { pool, sql: pgSqlClient(pool), end: () => pool.end() };
}
