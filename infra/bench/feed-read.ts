import pg from 'pg';
import { freePort, startProcess } from '@hoptrack/testing/processes';
import type { Benchmark } from './lib/context';
import { ProcessMeter } from './lib/procstat';
import { capacitySummary, compareCapacities, round } from './lib/report';
import { describeCapacity, httpStep, measureCapacity, warmUp, type CapacityFigure } from './lib/targets';
import { userId } from './seed';

/**
 * 2. Home feed read: GET /api/sessions (20 fully hydrated cards) direct to
 * the sessions service and through the gateway, as the capacity at p99 ≤ 50
 * ms, beside a bare Fastify handler that only reads the same timelines'
 * ranges from Redis, every search on the same ladder from the same floor.
 * Readers rotate over many people (each their own timeline, built before the
 * clock starts), so no single hot key flatters the figure; then, through the
 * gateway, the seed's median reader (median number of friends) alone and its
 * heavy reader (the most friends but the celebrity) alone, whose pages are
 * what a typical and a well-connected person get. Also counts the SQL
 * statements one page costs (the N+1 check).
 */
const TARGET_P99_MS = 50;
/** Every search's floor: the ladder's first rung. */
const FLOOR_RPS = 25;

export const benchFeedRead: Benchmark = async (ctx) => {
  const readers = Array.from({ length: ctx.smoke ? 20 : 200 }, (_, i) => i + 2);
  const tokens = await Promise.all(readers.map((i) => ctx.token(i)));
  const feedRequest = (i: number) => ({ path: '/api/sessions?limit=20', headers: { authorization: `Bearer ${tokens[i % tokens.length]}` } });
  const { reader: median, heavyReader: heavy } = ctx.seed;
  const [medianToken, heavyToken] = await Promise.all([ctx.token(median), ctx.token(heavy)]);
  const oneReader = (token: string) => () => ({ path: '/api/sessions?limit=20', headers: { authorization: `Bearer ${token}` } });
  const sessions = ctx.stack.services.sessions;

  // Build every reader's timeline (the first read rebuilds it from Postgres) and check a page is what the web app gets.
  // The body is the array of cards; the cursor of the next page is in x-next-cursor.
  const pageOf = async (token: string) => {
    const res = await fetch(`${sessions.url}/api/sessions?limit=20`, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) throw new Error(`feed read answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as Array<{ photo: string | null }>;
  };
  let signedPhotos = 0;
  for (const token of tokens) signedPhotos += (await pageOf(token)).filter((card) => card.photo?.includes('&sig=')).length;
  const cards = (await pageOf(tokens[0] ?? '')).length;
  for (const [who, token] of [['the median reader', medianToken], ['the heavy reader', heavyToken]] as const) {
    const count = (await pageOf(token)).length;
    if (count !== 20 && !ctx.smoke) throw new Error(`${who}'s page has ${count} cards, not 20: the data set is too thin`);
  }
  if (cards !== 20 && !ctx.smoke) throw new Error(`a reader's page has ${cards} cards, not 20: the data set is too thin`);
  // The seed gives a share of sessions a stored photo; each is signed for its viewer on every read.
  if (signedPhotos === 0) throw new Error('no card on the readers\' first pages has a signed photo: the seed\'s photos do not reach the feed');

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
    const targets = [
      ['gateway', ctx.stack.baseUrl, feedRequest],
      ['direct', sessions.url, feedRequest],
      ['median reader', ctx.stack.baseUrl, oneReader(medianToken)],
      ['heavy reader', ctx.stack.baseUrl, oneReader(heavyToken)],
      ['redis range', reference.url, rangeRequest],
    ] as const;
    const found = new Map<string, CapacityFigure>();
    for (const [name, origin, request] of targets) {
      await warmUp(ctx, origin, { request });
      const figure = await measureCapacity(ctx, meter, httpStep(origin, { request }), { floorRps: FLOOR_RPS, targetP99Ms: TARGET_P99_MS });
      found.set(name, figure);
      ctx.log(`  feed ${name}: ${describeCapacity(figure)} at p99 ≤ ${TARGET_P99_MS} ms`);
    }
    const figure = (name: (typeof targets)[number][0]) => found.get(name) as CapacityFigure;
    const REDIS_RANGE = 'a bare Fastify handler doing only the Redis range read (rotating readers)';
    const againstRotating = (name: 'median reader' | 'heavy reader') =>
      `${(figure(name).rps / Math.max(1, figure('gateway').rps)).toFixed(2)} × the rotating readers' figure through the gateway`;
    return {
      id: 'feed-read',
      title: 'Home feed read',
      comparisons: [
        compareCapacities({
          measure: `GET /api/sessions (20 hydrated cards) through the gateway, ${readers.length} rotating readers, rps at p99 ≤ ${TARGET_P99_MS} ms`,
          value: figure('gateway'),
          reference: REDIS_RANGE,
          referenceValue: figure('redis range'),
        }),
        compareCapacities({
          measure: `GET /api/sessions direct to the sessions service, rotating readers, rps at p99 ≤ ${TARGET_P99_MS} ms`,
          value: figure('direct'),
          reference: REDIS_RANGE,
          referenceValue: figure('redis range'),
        }),
        compareCapacities({
          measure: 'Feed through the gateway ÷ direct',
          value: figure('gateway'),
          reference: 'direct to the sessions service',
          referenceValue: figure('direct'),
        }),
        compareCapacities({
          measure: `GET /api/sessions through the gateway as the median reader alone (person ${median}, ${ctx.seed.readerFriends} friends), rps at p99 ≤ ${TARGET_P99_MS} ms`,
          value: figure('median reader'),
          reference: REDIS_RANGE,
          referenceValue: figure('redis range'),
          note: againstRotating('median reader'),
        }),
        compareCapacities({
          measure: `GET /api/sessions through the gateway as the heavy reader alone (person ${heavy}, ${ctx.seed.heavyReaderFriends} friends), rps at p99 ≤ ${TARGET_P99_MS} ms`,
          value: figure('heavy reader'),
          reference: REDIS_RANGE,
          referenceValue: figure('redis range'),
          note: againstRotating('heavy reader'),
        }),
      ],
      costs: [...found].flatMap(([name, f]) => f.median.costs.map((c) => ({ at: `feed via ${name} at ${f.rps} rps`, ...c }))),
      details: {
        readers: readers.length,
        medianReader: { person: median, friends: ctx.seed.readerFriends },
        heavyReader: { person: heavy, friends: ctx.seed.heavyReaderFriends },
        cardsPerPage: cards,
        signedPhotosPerPage: round(signedPhotos / tokens.length, 1),
        sqlStatementsPerPage: statementsPerPage === null ? null : round(statementsPerPage, 1),
        ...Object.fromEntries([...found].map(([name, f]) => [name, capacitySummary(f)])),
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
