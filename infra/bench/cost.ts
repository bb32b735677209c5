import pg from 'pg';
import { Redis } from 'ioredis';
import type { BenchContext, Benchmark } from './lib/context';
import { openLoop } from './lib/load';
import { ProcessMeter, type ProcessCost } from './lib/procstat';
import { capacitySummary, compare, medianOf, round, stepSummary } from './lib/report';
import { againstGoal, measureIdle, stackCpu, stackProcesses, untilQuiet } from './lib/stack-meter';
import { SESSION_FORM_CONTENT_TYPE, sessionFormBody } from './lib/session-form';
import { describeCapacity, httpStep, measureCapacity, warmUp, type RunStep } from './lib/targets';
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
const CREATE_TARGET_P99_MS = 100;
/** After a create step, the stack must be quiet again within this long for the rate to count as sustained. */
const DRAIN_BOUND_MS = 5_000;
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

/** The run whose value is the median: its per-process costs are the ones reported. */
const medianRun = <T extends { value: number }>(runs: T[]): T => [...runs].sort((a, b) => a.value - b.value)[Math.floor(runs.length / 2)] as T;

export const benchCost: Benchmark = async (ctx) => {
  const meter = ProcessMeter.of(stackProcesses(ctx));
  const idleSeconds = ctx.smoke ? 3 : 60;
  const measureSeconds = ctx.smoke ? 2 : 30;
  // The figures are medians of three measurements, the spread beside them; the smoke only checks the harness.
  const repeats = ctx.smoke ? 1 : 3;
  // Capacity here is judged on 30-second steps (issue 41), not the other sections' five.
  const searchCtx: BenchContext = { ...ctx, stepSeconds: ctx.smoke ? ctx.stepSeconds : 30 };
  const details: Record<string, unknown> = {};

  // --- The idle stack: nobody uses it; its commits too (relays, pollers), to subtract from the create's.
  await new Promise((r) => setTimeout(r, ctx.smoke ? 1_000 : 10_000));
  const idleRuns: Array<{ value: number; costs: ProcessCost[]; seconds: number; commitsPerSecond: number }> = [];
  for (let run = 0; run < repeats; run++) {
    const commitsBefore = await commits(ctx);
    const started = performance.now();
    const { cores, costs, ms } = await measureIdle(ctx, idleSeconds);
    const commitsPerSecond = ((await commits(ctx)) - commitsBefore) / ((performance.now() - started) / 1000);
    idleRuns.push({ value: cores, costs, seconds: round(ms / 1000, 1), commitsPerSecond: round(commitsPerSecond, 2) });
  }
  const idle = medianRun(idleRuns);
  const idleCores = idle.value;
  const idleCommitsPerSecond = idle.commitsPerSecond;
  details.idle = { runs: idleRuns.map((r) => ({ ...r, value: round(r.value, 4) })) };
  ctx.log(`  idle stack: ${idleRuns.map((r) => r.value.toFixed(3)).join(', ')} cores over ${idleSeconds} s each`);

  // --- The feed: rotating readers, many more than the card and token caches hold.
  const readerCount = Math.min(ctx.seed.scale.users - 1, ctx.smoke ? 100 : 5_000);
  // Spread over everyone: in the community set people are numbered by how many friends they have
  // (graph.ts), so the first 5,000 would be its best-connected 5 %. (At the full scale the stride is 1.)
  const stride = Math.max(1, Math.floor((ctx.seed.scale.users - 1) / readerCount));
  const readers = Array.from({ length: readerCount }, (_, i) => 2 + i * stride);
  const tokens = await Promise.all(readers.map((i) => ctx.token(i)));
  const feedRequest = (i: number) => ({ path: '/api/sessions?limit=20', headers: { authorization: `Bearer ${tokens[i % tokens.length]}` } });
  // Every reader's first read builds their timeline: a page as someone active gets it. What a rebuild costs
  // the stack (a returning person's first page, or everyone's after the timelines' Redis is lost) is kept too.
  meter.begin();
  const rebuildStarted = performance.now();
  for (let i = 0; i < tokens.length; i += 32) await Promise.all(tokens.slice(i, i + 32).map((t) => firstRead(ctx, t)));
  const rebuildCosts = meter.end(tokens.length);
  details.rebuild = { readers: tokens.length, inFlight: 32, seconds: round((performance.now() - rebuildStarted) / 1000, 1), cpuMsPerRead: round(stackCpu(rebuildCosts) / tokens.length, 2), costs: rebuildCosts };
  ctx.log(`  ${tokens.length} first reads (timelines rebuilt) in ${((performance.now() - rebuildStarted) / 1000).toFixed(0)} s, ${(stackCpu(rebuildCosts) / tokens.length).toFixed(1)} CPU-ms each whole-stack`);
  await warmUp(ctx, ctx.stack.baseUrl, { request: feedRequest });
  const capacity = await measureCapacity(searchCtx, meter, httpStep(ctx.stack.baseUrl, { request: feedRequest }), { floorRps: FLOOR_RPS, targetP99Ms: FEED_TARGET_P99_MS });
  ctx.log(`  feed, ${readerCount} rotating readers: ${describeCapacity(capacity)} at p99 ≤ ${FEED_TARGET_P99_MS} ms`);
  const halfRate = Math.max(FLOOR_RPS, Math.round(capacity.rps / 2));
  const sessionsUrl = ctx.stack.services.sessions.metricsUrl;
  const feedRuns: Array<{ value: number; gatewayCpuMs: number; cardHitRate: number | null; tokenHitRate: number | null; step: ReturnType<typeof stepSummary>; costs: ProcessCost[] }> = [];
  for (let run = 0; run < repeats; run++) {
    const cardsBefore = await scrape(sessionsUrl, 'sessions_feed_card_reads_total', 'source');
    const tokensBefore = await scrape(sessionsUrl, 'auth_token_verifications_total', 'result');
    meter.begin();
    const feedStep = await openLoop(ctx.stack.baseUrl, { rate: halfRate, seconds: measureSeconds, request: feedRequest });
    const costs = meter.end(feedStep.requests);
    feedRuns.push({
      // The stack's idle share is part of a page's cost at this rate: it is what the stack spends to be there.
      value: stackCpu(costs) / feedStep.requests,
      gatewayCpuMs: ofProcess(costs, 'gateway') / feedStep.requests,
      cardHitRate: hitRate(cardsBefore, await scrape(sessionsUrl, 'sessions_feed_card_reads_total', 'source'), ['memory', 'redis']),
      tokenHitRate: hitRate(tokensBefore, await scrape(sessionsUrl, 'auth_token_verifications_total', 'result'), ['remembered']),
      step: stepSummary(feedStep),
      costs,
    });
  }
  const feed = medianRun(feedRuns);
  const feedCpuMs = medianOf(feedRuns.map((r) => r.value), 3);
  const gatewayCpuMs = medianOf(feedRuns.map((r) => r.gatewayCpuMs), 3);
  const feedCeiling = MACHINE_CPU_MS_PER_SECOND / feedCpuMs.value;
  details.feed = { readers: readerCount, rate: halfRate, capacity: capacitySummary(capacity), runs: feedRuns };
  ctx.log(`  feed at ${halfRate} rps: ${feedRuns.map((r) => r.value.toFixed(2)).join(', ')} CPU-ms a page whole-stack, gateway ${feedRuns.map((r) => r.gatewayCpuMs.toFixed(2)).join(', ')}; cards ${feed.cardHitRate ?? '—'}, tokens ${feed.tokenHitRate ?? '—'} from cache`);

  // --- Creates by ordinary people (a median author), then until the stack is quiet again: relay, consumers, fan-out.
  const { users } = ctx.seed.scale;
  const authors = Array.from({ length: ctx.smoke ? 20 : 300 }, (_, i) => Math.floor(users * 0.5) + i);
  const authorTokens = await Promise.all(authors.map((i) => ctx.token(i)));
  const body = sessionFormBody({ title: 'Cost night', description: 'Logged by the cost benchmark.', location: 'The Bench Arms', beerCount: '2', duration: '90', avgAbv: '4.8', latitude: '', longitude: '', beerTypes: JSON.stringify(['Lager']), musicTrack: '' });
  const createRequest = (i: number) => ({ method: 'POST' as const, path: '/api/sessions', headers: { authorization: `Bearer ${authorTokens[i % authorTokens.length]}`, 'content-type': SESSION_FORM_CONTENT_TYPE }, body });
  const createRate = ctx.smoke ? 5 : 20;
  const createRuns: Array<{ value: number; commits: number; windowSeconds: number; step: ReturnType<typeof stepSummary>; costs: ProcessCost[] }> = [];
  for (let run = 0; run < repeats; run++) {
    const commitsBefore = await commits(ctx);
    meter.begin();
    const started = performance.now();
    const createStep = await openLoop(ctx.stack.baseUrl, { rate: createRate, seconds: measureSeconds, request: createRequest });
    if (createStep.errors > 0) throw new Error(`creates answered ${JSON.stringify(createStep.statuses)}`);
    await untilQuiet(ctx, idleCores);
    const costs = meter.end(createStep.requests);
    const windowMs = performance.now() - started;
    const createCommits = (await commits(ctx)) - commitsBefore - idleCommitsPerSecond * ((performance.now() - started) / 1000);
    createRuns.push({
      // What the stack spends idle over the window is not the creates': taken off, so the figure is the work's.
      value: (stackCpu(costs) - idleCores * windowMs) / createStep.requests,
      commits: createCommits / createStep.requests,
      windowSeconds: round(windowMs / 1000, 1),
      step: stepSummary(createStep),
      costs,
    });
  }
  const create = medianRun(createRuns);
  const createCpuMs = medianOf(createRuns.map((r) => r.value), 2);
  const commitsPerCreate = medianOf(createRuns.map((r) => r.commits), 2);
  ctx.log(`  create at ${createRate}/s: ${createRuns.map((r) => r.value.toFixed(1)).join(', ')} CPU-ms whole-stack, ${createRuns.map((r) => r.commits.toFixed(1)).join(', ')} commits`);

  // Create capacity: the answers' p99, and the work behind them (relay, consumers, fan-out) done within
  // DRAIN_BOUND_MS of each step's end. A rate whose backlog grows is not one the stack sustains.
  const createStep = httpStep(ctx.stack.baseUrl, { request: createRequest });
  const keepingUp: RunStep = async (rate, seconds) => {
    const step = await createStep(rate, seconds);
    const drained = await untilQuiet(ctx, idleCores, DRAIN_BOUND_MS);
    return { ...step, keptUp: drained.quiet };
  };
  const createCapacity = await measureCapacity(searchCtx, meter, keepingUp, { floorRps: FLOOR_RPS, targetP99Ms: CREATE_TARGET_P99_MS });
  const createCeiling = MACHINE_CPU_MS_PER_SECOND / createCpuMs.value;
  details.create = { rate: createRate, runs: createRuns, capacity: capacitySummary(createCapacity) };
  ctx.log(`  create: ${describeCapacity(createCapacity)} at p99 ≤ ${CREATE_TARGET_P99_MS} ms, drained within ${DRAIN_BOUND_MS / 1000} s`);

  // --- Timelines in Redis, as the readers and the creates above left them: an active reader's, and the
  // people between them, who never read during the run (as someone inactive 30 days: no timeline, since
  // fan-out writes only timelines that exist and an unread one expires).
  const timelineSizes = async (people: number[]): Promise<number[]> => {
    const redis = new Redis(ctx.redisUrl);
    try {
      const sizes: number[] = [];
      for (const i of people) {
        const bytes = await redis.call('MEMORY', 'USAGE', `${ctx.namespace}:timeline:${userId(i)}`, 'SAMPLES', '0');
        sizes.push(typeof bytes === 'number' ? bytes : 0);
      }
      return sizes.sort((a, b) => a - b);
    } finally {
      redis.disconnect();
    }
  };
  const sizes = await timelineSizes(readers.slice(0, 500));
  // Everyone else but the other sections' named readers, 500 of them evenly spread: about half follow one of the authors above.
  const reading = new Set([...readers, ctx.seed.reader, ctx.seed.heavyReader]);
  const others = Array.from({ length: users - 1 }, (_, i) => i + 2).filter((i) => !reading.has(i));
  const inactive = Array.from({ length: Math.min(500, others.length) }, (_, k) => others[Math.floor((k * others.length) / Math.min(500, others.length))] as number);
  const inactiveSizes = await timelineSizes(inactive);
  const timelineBytes = sizes[Math.floor(sizes.length / 2)] ?? 0;
  const inactiveBytes = inactiveSizes.reduce((a, b) => a + b, 0);
  details.timelines = { measured: sizes.length, medianBytes: timelineBytes, maxBytes: sizes[sizes.length - 1] ?? 0, inactive: inactiveSizes.length, inactiveBytes };

  const costsOf = (label: string, costs: ProcessCost[]) => costs.map((c) => ({ at: label, ...c }));
  return {
    id: 'cost',
    title: 'Cost per request, whole stack',
    comparisons: [
      goal({ measure: `Feed page, whole-stack CPU-ms (${readerCount.toLocaleString('en-GB')} rotating readers at ${halfRate} rps, half of capacity; load generator apart; card cache hits ${feed.cardHitRate ?? '—'}, token cache hits ${feed.tokenHitRate ?? '—'})`, ...feedCpuMs, unit: 'ms', referenceValue: GOALS.feedCpuMs }),
      goal({ measure: 'Gateway CPU-ms per request on the feed path', ...gatewayCpuMs, unit: 'ms', referenceValue: GOALS.gatewayCpuMs }),
      compare({
        measure: `Timeline rebuild, whole-stack CPU-ms per first page (the ${tokens.length.toLocaleString('en-GB')} readers' first reads, 32 at once: a returning person, or everyone after the timelines' Redis is lost)`,
        value: round(stackCpu(rebuildCosts) / tokens.length, 2),
        unit: 'ms',
        reference: 'a warm feed page (the median run above)',
        referenceValue: feedCpuMs.value,
      }),
      goal({ measure: `Create, whole-stack CPU-ms (request, relay, every consumer, fan-out; median authors at ${createRate}/s, the idle stack's share taken off)`, ...createCpuMs, unit: 'ms', referenceValue: GOALS.createCpuMs }),
      goal({ measure: 'Postgres commits per create (every database; the idle stack’s taken off)', ...commitsPerCreate, unit: 'commits', referenceValue: GOALS.commitsPerCreate }),
      goal({
        measure: `Feed capacity ÷ CPU ceiling (capacity at p99 ≤ ${FEED_TARGET_P99_MS} ms on ${searchCtx.stepSeconds}-s steps ${capacity.rps} rps (${capacity.spread.min}–${capacity.spread.max}); ceiling ${Math.round(feedCeiling)} rps = 2,000 ÷ the page's CPU-ms)`,
        value: round(capacity.rps / feedCeiling, 2),
        unit: '',
        referenceValue: GOALS.capacityShare,
      }),
      goal({
        measure: `Create capacity ÷ CPU ceiling (capacity at p99 ≤ ${CREATE_TARGET_P99_MS} ms on ${searchCtx.stepSeconds}-s steps, the stack quiet within ${DRAIN_BOUND_MS / 1000} s of each, ${createCapacity.rps} rps (${createCapacity.spread.min}–${createCapacity.spread.max}); ceiling ${Math.round(createCeiling)} rps = 2,000 ÷ the create's CPU-ms)`,
        value: round(createCapacity.rps / createCeiling, 2),
        unit: '',
        referenceValue: GOALS.capacityShare,
      }),
      goal({ measure: `Timeline bytes per person in Redis (median of ${sizes.length} active readers, MEMORY USAGE)`, value: timelineBytes, unit: 'B', referenceValue: GOALS.timelineBytes }),
      {
        ...compare({
          measure: `Timeline bytes in Redis of ${inactiveSizes.length} people who did not read during the run (none kept for the inactive), all together`,
          value: inactiveBytes,
          unit: 'B',
          reference: 'the goal (issue 41)',
          referenceValue: 0,
        }),
        referenceIsGoal: true,
      },
      goal({ measure: `Idle stack CPU, cores (every process and engine, no traffic, ${idleSeconds} s)`, ...medianOf(idleRuns.map((r) => r.value), 3), unit: 'cores', referenceValue: GOALS.idleCores }),
    ],
    costs: [...costsOf(`feed page at ${halfRate} rps`, feed.costs), ...costsOf(`create at ${createRate}/s, until quiet`, create.costs), ...costsOf('idle, per second', idle.costs)],
    details,
  };
};
