import pg from 'pg';
import { freePort, startProcess } from '@hoptrack/testing/processes';
import type { Benchmark } from './lib/context';
import { ProcessMeter } from './lib/procstat';
import { capacitySummary, compare, round } from './lib/report';
import { measuredCapacity, warmUp } from './lib/targets';
import { userId } from './seed';

/**
 * 2. Home feed read: GET /api/sessions (20 fully hydrated cards) direct to
 * the sessions service and through the gateway, as the capacity at p99 ≤ 50
 * ms, beside a bare Fastify handler that only reads the same timelines'
 * ranges from Redis. Readers rotate over many people (each their own
 * timeline, built before the clock starts), so no single hot key flatters
 * the figure. Also counts the SQL statements one page costs (the N+1 check).
 */
const TARGET_P99_MS = 50;

export const benchFeedRead: Benchmark = async (ctx) => {
  const readers = Array.from({ length: ctx.smoke ? 20 : 200 }, (_, i) => i + 2);
  const tokens = await Promise.all(readers.map((i) => ctx.token(i)));
  const feedRequest = (i: number) => ({ path: '/api/sessions?limit=20', headers: { authorization: `Bearer ${tokens[i % tokens.length]}` } });
  const sessions = ctx.stack.services.sessions;

  // Build every reader's timeline (the first read rebuilds it from Postgres) and check a page is what the web app gets.
  for (const token of tokens) {
    const res = await fetch(`${sessions.url}/api/sessions?limit=20`, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) throw new Error(`feed read answered ${res.status}: ${await res.text()}`);
  }
  // The body is the array of cards; the cursor of the next page is in x-next-cursor.
  const sample = (await (await fetch(`${sessions.url}/api/sessions?limit=20`, { headers: { authorization: `Bearer ${tokens[0]}` } })).json()) as Array<{
    user: { username: string };
    likes: unknown[];
  }>;
  const cards = sample.length;
  if (cards !== 20 && !ctx.smoke) throw new Error(`a reader's page has ${cards} cards, not 20: the data set is too thin`);

  // Half a minute of waiting for Postgres' counters: not in the smoke, which only checks the harness runs.
  const statementsPerPage = ctx.smoke
    ? null
    : await countStatements(ctx.databases.sessions, async () => {
        for (let i = 0; i < 50; i++) await fetch(`${sessions.url}${feedRequest(i).path}`, { headers: feedRequest(i).headers });
      }, 50);

  const reference = await startProcess({
    name: 'redis range handler',
    entry: 'infra/bench/servers/redis-range.ts',
    port: await freePort(),
    env: { REDIS_URL: ctx.redisUrl, TIMELINE_PREFIX: `${ctx.namespace}:timeline:` },
  });
  try {
    const meter = ProcessMeter.of([
      { name: 'gateway', pid: ctx.stack.gateway.child.pid ?? 0 },
      { name: 'sessions', pid: sessions.child.pid ?? 0 },
      { name: 'redis range handler', pid: reference.child.pid ?? 0 },
    ]);
    const rangeRequest = (i: number) => ({ path: `/timeline/${userId(readers[i % readers.length] ?? 2)}` });
    const runs = [
      ['gateway', ctx.stack.baseUrl, feedRequest, ctx.rates(25, 3000)],
      ['direct', sessions.url, feedRequest, ctx.rates(25, 3000)],
      ['redis range', reference.url, rangeRequest, ctx.rates(250, 25000)],
    ] as const;
    const found: Record<string, Awaited<ReturnType<typeof measuredCapacity>>> = {};
    for (const [name, origin, request, rates] of runs) {
      await warmUp(ctx, origin, { request });
      found[name] = await measuredCapacity(meter, origin, { rates: [...rates], seconds: ctx.stepSeconds, targetP99Ms: TARGET_P99_MS, request });
      ctx.log(`  feed ${name}: ${found[name].capacity.sustainedRps} rps at p99 ≤ ${TARGET_P99_MS} ms`);
    }
    const rps = (name: string) => found[name]?.capacity.sustainedRps ?? 0;
    return {
      id: 'feed-read',
      title: 'Home feed read',
      comparisons: [
        compare({
          measure: `GET /api/sessions (20 hydrated cards) through the gateway, rps at p99 ≤ ${TARGET_P99_MS} ms`,
          value: rps('gateway'),
          unit: 'rps',
          reference: 'a bare Fastify handler doing only the Redis range read',
          referenceValue: rps('redis range'),
        }),
        compare({
          measure: `GET /api/sessions direct to the sessions service, rps at p99 ≤ ${TARGET_P99_MS} ms`,
          value: rps('direct'),
          unit: 'rps',
          reference: 'a bare Fastify handler doing only the Redis range read',
          referenceValue: rps('redis range'),
        }),
        compare({
          measure: 'Feed through the gateway ÷ direct',
          value: rps('gateway'),
          unit: 'rps',
          reference: 'direct to the sessions service',
          referenceValue: rps('direct'),
        }),
      ],
      costs: Object.entries(found).flatMap(([name, f]) => f.costs.map((c) => ({ at: `feed via ${name} at ${f.capacity.sustainedRps} rps`, ...c }))),
      details: {
        readers: readers.length,
        cardsPerPage: cards,
        sqlStatementsPerPage: statementsPerPage === null ? null : round(statementsPerPage, 1),
        ...Object.fromEntries(Object.entries(found).map(([name, f]) => [name, capacitySummary(f.capacity)])),
      },
    };
  } finally {
    await reference.stop();
  }
};

/**
 * Statements per page from Postgres' own counters: every statement outside a
 * transaction is a transaction, so the growth of xact_commit during `work`,
 * less the growth over an equally long idle window (relays and consumers
 * poll in the background), divided by the pages read.
 */
async function countStatements(url: string, work: () => Promise<void>, pages: number): Promise<number> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const commits = async () => {
    // An idle backend flushes its counters only every 10 s (PGSTAT_IDLE_INTERVAL): wait them out.
    await new Promise((r) => setTimeout(r, 10_500));
    await db.query('SELECT pg_stat_clear_snapshot()');
    return Number((await db.query<{ n: string }>('SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()')).rows[0]?.n ?? 0);
  };
  try {
    const a = await commits();
    const t = performance.now();
    await work();
    const elapsed = performance.now() - t;
    const b = await commits();
    await new Promise((r) => setTimeout(r, elapsed));
    const c = await commits();
    // The reads themselves add one commit each from the three `commits()` calls; the idle window has the same.
    return (b - a - (c - b)) / pages;
  } finally {
    await db.end();
  }
}
