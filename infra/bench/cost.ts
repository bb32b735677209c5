import pg from 'pg';
import { Redis } from 'ioredis';
import type { BenchContext, Benchmark } from './lib/context';
import { openLoop } from './lib/load';
import { ProcessMeter, type ProcessCost } from './lib/procstat';
import { capacitySummary, round, stepSummary } from './lib/report';
import { againstGoal, measureIdle, stackCpu, stackProcesses, untilQuiet } from './lib/stack-meter';
import { SESSION_FORM_CONTENT_TYPE, sessionFormBody } from './lib/session-form';
import { describeCapacity, httpStep, measureCapacity, warmUp } from './lib/targets';
import { userId } from './seed';

/**
 * 10. Cost per request, whole stack (issue 41): what one feed page and one
 * create cost every process of the stack together — gateway, services,
 * workers, Postgres, Redis, NATS — with the load generator reported apart;
 * the stack's CPU with nobody using it; Postgres commits per create; the
 * bytes of a timeline; and the feed's capacity against the ceiling its cost
 * implies (2,000 CPU-ms a second on two cores ÷ the CPU-ms of one page).
 * Each row stands beside the issue's goal, not a bare tool: these are costs
 * to drive down, and their machine is judged by the other sections' references.
 */
const FEED_TARGET_P99_MS = 100;
const FLOOR_RPS = 25;
/** CPU-ms a second the machine has: the ceiling of any rate is this ÷ the CPU-ms one request costs. */
const MACHINE_CPU_MS_PER_SECOND = 2_000;
const GOALS = {
  feedCpuMs: 2.0,
  gatewayCpuMs: 0.4,
  createCpuMs: 6,
  commitsPerCreate: 3,
  capacityShare: 0.7,
  timelineBytes: 16 * 1024,
  idleCores: 0.05,
};

const ofProcess = (costs: ProcessCost[], name: string) => costs.find((c) => c.process === name)?.cpuMs ?? 0;
const goal = againstGoal;

/** A labelled counter's samples summed per label value, from a process's /metrics. */
async function scrape(url: string, metric: string, label: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const found = new Map<string, number>();
  const line = new RegExp(`^${metric}\\{[^}]*${label}="([^"]+)"[^}]*\\} (\\S+)$`, 'gm');
  for (const m of text.matchAll(line)) found.set(m[1] ?? '', (found.get(m[1] ?? '') ?? 0) + Number(m[2]));
  return found;
}

/** Hits ÷ all of a scraped counter's growth between two scrapes. */
function hitRate(before: Map<string, number>, after: Map<string, number>, hits: string[]): number | null {
  let all = 0;
  let hit = 0;
  for (const [k, v] of after) {
    const grew = v - (before.get(k) ?? 0);
    all += grew;
    if (hits.includes(k)) hit += grew;
  }
  return all > 0 ? round(hit / all, 3) : null;
}

/**
 * Commits so far over every database of the run, once the idle backends
 * flushed their counters (every 10 s). The smoke, which only checks that
 * the harness runs, does not wait for them: it counts 0.
 */
async function commits(ctx: BenchContext): Promise<number> {
  if (ctx.smoke) return 0;
  await new Promise((r) => setTimeout(r, 10_500));
  let total = 0;
  for (const url of Object.values(ctx.databases)) {
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    total += Number((await db.query<{ n: string }>('SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()')).rows[0]?.n ?? 0);
    await db.end();
  }
  return total;
}

/**
 * A reader's first page (it builds their timeline). A network error is tried
 * twice more and said with its cause: the community set's first run lost its
 * whole section to one `fetch failed` among 5,000 first reads.
 */
async function firstRead(ctx: BenchContext, token: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await (await fetch(`${ctx.stack.baseUrl}/api/sessions?limit=20`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer();
      return;
    } catch (err) {
      if (attempt >= 3) throw err;
      ctx.log(`  a first feed read failed (${String((err as { cause?: unknown }).cause ?? err)}); trying again`);
    }
  }
}

export const benchCost: Benchmark = async (ctx) => {
  const meter = ProcessMeter.of(stackProcesses(ctx));
  const idleSeconds = ctx.smoke ? 3 : 60;
  const details: Record<string, unknown> = {};

  // --- The idle stack: nobody uses it; its commits too (relays, pollers), to subtract from the create's.
  await new Promise((r) => setTimeout(r, ctx.smoke ? 1_000 : 10_000));
  const idleCommitsBefore = await commits(ctx);
  const idleStarted = performance.now();
  const { cores: idleCores, costs: idleCosts, ms: idleMs } = await measureIdle(ctx, idleSeconds);
  const idleCommitsPerSecond = ((await commits(ctx)) - idleCommitsBefore) / ((performance.now() - idleStarted) / 1000);
  details.idle = { seconds: round(idleMs / 1000, 1), cores: round(idleCores, 4), commitsPerSecond: round(idleCommitsPerSecond, 2), costs: idleCosts };
  ctx.log(`  idle stack: ${idleCores.toFixed(3)} cores over ${Math.round(idleMs / 1000)} s`);

  // --- The feed: rotating readers, many more than the card and token caches hold.
  const readerCount = Math.min(ctx.seed.scale.users - 1, ctx.smoke ? 100 : 5_000);
  // Spread over everyone: in the community set people are numbered by how many friends they have
  // (graph.ts), so the first 5,000 would be its best-connected 5 %. (At the full scale the stride is 1.)
  const stride = Math.max(1, Math.floor((ctx.seed.scale.users - 1) / readerCount));
  const readers = Array.from({ length: readerCount }, (_, i) => 2 + i * stride);
  const tokens = await Promise.all(readers.map((i) => ctx.token(i)));
  const feedRequest = (i: number) => ({ path: '/api/sessions?limit=20', headers: { authorization: `Bearer ${tokens[i % tokens.length]}` } });
  // Every reader's first read builds their timeline: a page as someone active gets it.
  for (let i = 0; i < tokens.length; i += 32) await Promise.all(tokens.slice(i, i + 32).map((t) => firstRead(ctx, t)));
  await warmUp(ctx, ctx.stack.baseUrl, { request: feedRequest });
  const capacity = await measureCapacity(ctx, meter, httpStep(ctx.stack.baseUrl, { request: feedRequest }), { floorRps: FLOOR_RPS, targetP99Ms: FEED_TARGET_P99_MS });
  ctx.log(`  feed, ${readerCount} rotating readers: ${describeCapacity(capacity)} at p99 ≤ ${FEED_TARGET_P99_MS} ms`);
  const halfRate = Math.max(FLOOR_RPS, Math.round(capacity.rps / 2));
  const measureSeconds = ctx.smoke ? 2 : 30;
  const sessionsUrl = ctx.stack.services.sessions.metricsUrl;
  const cardsBefore = await scrape(sessionsUrl, 'sessions_feed_card_reads_total', 'source');
  const tokensBefore = await scrape(sessionsUrl, 'auth_token_verifications_total', 'result');
  meter.begin();
  const feedStep = await openLoop(ctx.stack.baseUrl, { rate: halfRate, seconds: measureSeconds, request: feedRequest });
  const feedCosts = meter.end(feedStep.requests);
  const cardHitRate = hitRate(cardsBefore, await scrape(sessionsUrl, 'sessions_feed_card_reads_total', 'source'), ['memory', 'redis']);
  const tokenHitRate = hitRate(tokensBefore, await scrape(sessionsUrl, 'auth_token_verifications_total', 'result'), ['remembered']);
  // The stack's idle share is part of a page's cost at this rate: it is what the stack spends to be there.
  const feedCpuMs = stackCpu(feedCosts) / feedStep.requests;
  const gatewayCpuMs = ofProcess(feedCosts, 'gateway') / feedStep.requests;
  const ceiling = MACHINE_CPU_MS_PER_SECOND / feedCpuMs;
  details.feed = { readers: readerCount, rate: halfRate, step: stepSummary(feedStep), cardHitRate, tokenHitRate, capacity: capacitySummary(capacity), costs: feedCosts };
  ctx.log(`  feed at ${halfRate} rps: ${feedCpuMs.toFixed(2)} CPU-ms a page whole-stack, gateway ${gatewayCpuMs.toFixed(2)}; cards ${cardHitRate ?? '—'}, tokens ${tokenHitRate ?? '—'} from cache`);

  // --- Timelines in Redis, as the readers above left them.
  const redis = new Redis(ctx.redisUrl);
  const sizes: number[] = [];
  try {
    for (const i of readers.slice(0, 500)) {
      const bytes = await redis.call('MEMORY', 'USAGE', `${ctx.namespace}:timeline:${userId(i)}`, 'SAMPLES', '0');
      if (typeof bytes === 'number') sizes.push(bytes);
    }
  } finally {
    redis.disconnect();
  }
  sizes.sort((a, b) => a - b);
  const timelineBytes = sizes[Math.floor(sizes.length / 2)] ?? 0;
  details.timelines = { measured: sizes.length, medianBytes: timelineBytes, maxBytes: sizes[sizes.length - 1] ?? 0 };

  // --- Creates by ordinary people (a median author), then until the stack is quiet again: relay, consumers, fan-out.
  const { users } = ctx.seed.scale;
  const authors = Array.from({ length: ctx.smoke ? 20 : 300 }, (_, i) => Math.floor(users * 0.5) + i);
  const authorTokens = await Promise.all(authors.map((i) => ctx.token(i)));
  const body = sessionFormBody({ title: 'Cost night', description: 'Logged by the cost benchmark.', location: 'The Bench Arms', beerCount: '2', duration: '90', avgAbv: '4.8', latitude: '', longitude: '', beerTypes: JSON.stringify(['Lager']), musicTrack: '' });
  const createRequest = (i: number) => ({ method: 'POST' as const, path: '/api/sessions', headers: { authorization: `Bearer ${authorTokens[i % authorTokens.length]}`, 'content-type': SESSION_FORM_CONTENT_TYPE }, body });
  const createRate = ctx.smoke ? 5 : 20;
  const commitsBefore = await commits(ctx);
  meter.begin();
  const createStarted = performance.now();
  const createStep = await openLoop(ctx.stack.baseUrl, { rate: createRate, seconds: measureSeconds, request: createRequest });
  if (createStep.errors > 0) throw new Error(`creates answered ${JSON.stringify(createStep.statuses)}`);
  await untilQuiet(ctx, idleCores);
  const createCosts = meter.end(createStep.requests);
  const createWindowMs = performance.now() - createStarted;
  const createCommits = (await commits(ctx)) - commitsBefore - idleCommitsPerSecond * ((performance.now() - createStarted) / 1000);
  // What the stack spends idle over the window is not the creates': taken off, so the figure is the work's.
  const createCpuMs = (stackCpu(createCosts) - idleCores * createWindowMs) / createStep.requests;
  const commitsPerCreate = createCommits / createStep.requests;
  details.create = { rate: createRate, step: stepSummary(createStep), windowSeconds: round(createWindowMs / 1000, 1), commits: Math.round(createCommits), costs: createCosts };
  ctx.log(`  create at ${createRate}/s: ${createCpuMs.toFixed(1)} CPU-ms whole-stack, ${commitsPerCreate.toFixed(1)} commits`);

  return {
    id: 'cost',
    title: 'Cost per request, whole stack',
    comparisons: [
      goal({ measure: `Feed page, whole-stack CPU-ms (${readerCount.toLocaleString('en-GB')} rotating readers at ${halfRate} rps, half of capacity; load generator apart; card cache hits ${cardHitRate ?? '—'}, token cache hits ${tokenHitRate ?? '—'})`, value: round(feedCpuMs, 3), unit: 'ms', referenceValue: GOALS.feedCpuMs }),
      goal({ measure: 'Gateway CPU-ms per request on the feed path', value: round(gatewayCpuMs, 3), unit: 'ms', referenceValue: GOALS.gatewayCpuMs }),
      goal({ measure: `Create, whole-stack CPU-ms (request, relay, every consumer, fan-out; median authors at ${createRate}/s, the idle stack's share taken off)`, value: round(createCpuMs, 2), unit: 'ms', referenceValue: GOALS.createCpuMs }),
      goal({ measure: 'Postgres commits per create (every database; the idle stack’s taken off)', value: round(commitsPerCreate, 2), unit: 'commits', referenceValue: GOALS.commitsPerCreate }),
      goal({
        measure: `Feed capacity ÷ CPU ceiling (capacity at p99 ≤ ${FEED_TARGET_P99_MS} ms ${capacity.rps} rps; ceiling ${Math.round(ceiling)} rps = 2,000 ÷ the page's CPU-ms)`,
        value: round(capacity.rps / ceiling, 2),
        unit: '',
        referenceValue: GOALS.capacityShare,
      }),
      goal({ measure: `Timeline bytes per person in Redis (median of ${sizes.length} active readers, MEMORY USAGE)`, value: timelineBytes, unit: 'B', referenceValue: GOALS.timelineBytes }),
      goal({ measure: `Idle stack CPU, cores (every process and engine, no traffic, ${idleSeconds} s)`, value: round(idleCores, 3), unit: 'cores', referenceValue: GOALS.idleCores }),
    ],
    costs: [
      ...feedCosts.map((c) => ({ at: `feed page at ${halfRate} rps`, ...c })),
      ...createCosts.map((c) => ({ at: `create at ${createRate}/s, until quiet`, ...c })),
    ],
    details,
  };
};
