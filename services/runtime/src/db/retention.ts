import pg from 'pg';
import type { Logger } from 'pino';
import { Counter, type Registry } from 'prom-client';
import { STREAM_MAX_AGE_MS } from '../bus/connection';
import { IDEMPOTENCY_TTL_MS } from '../http/idempotency';
import { executeSql, identifier, queryRows, sql, type Sql } from './fragment';
import { pgSqlClient } from './pg-sql-client';
import type { SqlClient } from './sql';

/**
 * Every store the platform keeps per event or per request has a bound
 * (issue 38, item 8): what is past its use is deleted, a batch at a time.
 *
 * - outbox rows once published, past the streams' age: the relay never reads
 *   a published row again, and JetStream's duplicate window (10 minutes) is
 *   long gone;
 * - the inbox (processed_events), past the streams' age and a day: an event
 *   can only come again while its stream still holds it;
 * - messages an erasure queued for deletion (stream_purges), past the
 *   streams' age: the age limit took them;
 * - Idempotency-Key answers, past their 24 hours.
 *
 * Each service's processes run it on their own database; two copies deleting
 * the same rows at once cost a little work, never a wrong answer.
 */
const DAY_MS = 24 * 3600_000;
const BATCH = 5_000;

interface Store {
  table: string;
  /** The rows past their use, as of `now`. */
  expired(now: Date): Sql;
}

export const BOUNDED_STORES: readonly Store[] = [
  { table: 'outbox', expired: (now) => sql`"published_at" < ${new Date(now.getTime() - STREAM_MAX_AGE_MS)}` },
  { table: 'processed_events', expired: (now) => sql`"processed_at" < ${new Date(now.getTime() - STREAM_MAX_AGE_MS - DAY_MS)}` },
  // A queued purge past the streams' age: its message is gone with the age limit anyway.
  { table: 'stream_purges', expired: (now) => sql`"queued_at" < ${new Date(now.getTime() - STREAM_MAX_AGE_MS)}` },
  { table: 'idempotent_requests', expired: (now) => sql`"created_at" < ${new Date(now.getTime() - IDEMPOTENCY_TTL_MS)}` },
];

async function tableExists(db: SqlClient, table: string): Promise<boolean> {
  const rows = await queryRows<Array<{ found: boolean }>>(db, sql`SELECT to_regclass(${`public.${table}`}) IS NOT NULL AS "found"`);
  return rows[0]?.found ?? false;
}

/** Deletes every expired row of each store the database has, `BATCH` rows per statement (short locks); how many went, per table. */
export async function pruneStores(db: SqlClient, now: Date): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const store of BOUNDED_STORES) {
    if (!(await tableExists(db, store.table))) continue;
    const table = identifier(`"${store.table}"`);
    let total = 0;
    for (;;) {
      const n = await executeSql(db, sql`DELETE FROM ${table} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${table} WHERE ${store.expired(now)} LIMIT ${BATCH}))`);
      total += n;
      if (n < BATCH) break;
    }
    deleted[store.table] = total;
  }
  return deleted;
}

export interface Pruner {
  /** One pass now (the tests', and the first one after start). */
  runOnce(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/**
 * Prunes the service's database every `intervalMs` (an hour by default), on
 * a pool of its own of at most one connection that closes when idle: the
 * pruner holds no connection between passes.
 */
export function startPruner(options: { url: string; logger: Logger; registry: Registry; clock: () => Date; intervalMs?: number }): Pruner {
  const pool = new pg.Pool({ connectionString: options.url, max: 1, idleTimeoutMillis: 5_000 });
  pool.on('error', (err) => options.logger.warn({ err }, 'pruner connection lost'));
  const db = pgSqlClient(pool);
  const counter = new Counter({
    name: 'store_rows_pruned_total',
    help: 'Rows deleted from the bounded stores (outbox, inbox, idempotent requests) past their use',
    labelNames: ['table'] as const,
    registers: [options.registry],
  });
  let running: Promise<Record<string, number>> | undefined;
  const runOnce = () => {
    running ??= pruneStores(db, options.clock())
      .then((deleted) => {
        for (const [table, n] of Object.entries(deleted)) counter.inc({ table }, n);
        if (Object.values(deleted).some((n) => n > 0)) options.logger.info({ deleted }, 'stores pruned');
        return deleted;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const pass = () =>
    void runOnce().catch((err: unknown) => options.logger.warn({ err }, 'pruning failed; next pass in an interval'));
  // The first pass a while after start (not with every process of a rolling restart at once), then every interval.
  const intervalMs = options.intervalMs ?? 3600_000;
  const first = setTimeout(pass, Math.min(intervalMs, 60_000 + Math.random() * 60_000));
  const timer = setInterval(pass, intervalMs);
  first.unref();
  timer.unref();
  return {
    runOnce,
    async stop() {
      clearTimeout(first);
      clearInterval(timer);
      await running?.catch(() => undefined);
      await pool.end();
    },
  };
}
