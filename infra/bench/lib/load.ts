import { Pool } from 'undici';
import { watchConditions, type StepConditions } from './conditions';
import { rateOf } from './ladder';

/**
 * An open-loop load generator in the style of wrk2: requests leave at a fixed
 * rate whether or not earlier ones have answered, and each latency is counted
 * from the moment the request was due, not from when it was sent. A server
 * that stalls therefore shows its stall in every request queued behind it
 * (no coordinated omission), which a closed loop would hide.
 */

export interface RequestSpec {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface StepResult {
  offeredRps: number;
  achievedRps: number;
  seconds: number;
  requests: number;
  /** Answers outside 2xx, transport errors and requests still unanswered at the end. */
  errors: number;
  statuses: Record<string, number>;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** What the machine and the load generator were doing during the step (lib/conditions.ts). */
  conditions?: StepConditions;
  /**
   * For a target with work behind its answers (a create's relay, consumers and
   * fan-out): whether that work was done within a bound of the step's end. A
   * rate whose backlog grows is not sustained, however fast the answers came.
   */
  keptUp?: boolean;
}

export interface OpenLoopOptions {
  rate: number;
  seconds: number;
  /** Keep-alive connections to the target (the generator's parallelism). */
  connections?: number;
  request: (i: number) => RequestSpec;
  /** Called once per answer with its status (a check of correctness under load). */
  onAnswer?: (status: number, body: Buffer | null) => void;
  /** Keep bodies for onAnswer (costs the generator CPU; off by default). */
  keepBodies?: boolean;
}

const quantile = (sorted: Float64Array, q: number) => (sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0));

/** Latency summary of a list of milliseconds. */
export function summarise(ms: ArrayLike<number>): { p50: number; p90: number; p99: number; max: number } {
  const sorted = Float64Array.from(ms).sort();
  return { p50: quantile(sorted, 0.5), p90: quantile(sorted, 0.9), p99: quantile(sorted, 0.99), max: sorted[sorted.length - 1] ?? 0 };
}

/** One call of an open loop: resolves with the answer's status (2xx counts as success) or rejects. */
export type Call = (i: number) => Promise<number>;

/**
 * The scheduler behind openLoop, for any call (an HTTP request, a SQL insert):
 * call i is due at start + i / rate and its latency runs from then.
 */
export async function openLoopCalls(rate: number, seconds: number, call: Call): Promise<StepResult> {
  const total = Math.max(1, Math.round(rate * seconds));
  const latencies = new Float64Array(total).fill(Number.NaN);
  const statuses: Record<string, number> = {};
  let errors = 0;
  let answered = 0;
  const watched = watchConditions();
  const started = performance.now();
  const intervalMs = 1000 / rate;
  let sent = 0;
  let finish: () => void = () => {};
  const allAnswered = new Promise<void>((resolve) => (finish = resolve));

  const fire = (i: number, due: number) => {
    call(i)
      .then((status) => {
        latencies[i] = performance.now() - due;
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status < 200 || status >= 300) errors++;
      })
      .catch((err: unknown) => {
        latencies[i] = performance.now() - due;
        const code = err instanceof Error && 'code' in err ? String(err.code) : 'error';
        statuses[code] = (statuses[code] ?? 0) + 1;
        errors++;
      })
      .finally(() => {
        if (++answered === total) finish();
      });
  };

  // Send everything that has come due, then yield to the event loop so answers are read.
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && started + sent * intervalMs <= now) {
        fire(sent, started + sent * intervalMs);
        sent++;
      }
      if (sent < total) setTimeout(tick, Math.min(1, intervalMs));
      else resolve();
    };
    tick();
  });
  // Calls still unanswered 10 s after the last was due count as errors, with that wait as their latency.
  await Promise.race([allAnswered, new Promise<void>((r) => setTimeout(r, 10_000).unref())]);
  const elapsedSeconds = (performance.now() - started) / 1000;
  let missing = 0;
  for (let i = 0; i < total; i++) {
    if (Number.isNaN(latencies[i])) {
      latencies[i] = 10_000;
      missing++;
    }
  }
  if (missing > 0) statuses.unanswered = missing;
  return {
    offeredRps: rate,
    achievedRps: (total - missing) / elapsedSeconds,
    seconds: elapsedSeconds,
    requests: total,
    errors: errors + missing,
    statuses,
    ...summarise(latencies),
    conditions: watched(),
  };
}

export async function openLoop(origin: string, options: OpenLoopOptions): Promise<StepResult> {
  const pool = new Pool(origin, { connections: options.connections ?? 64, pipelining: 1, keepAliveTimeout: 30_000 });
  try {
    return await openLoopCalls(options.rate, options.seconds, async (i) => {
      const spec = options.request(i);
      const res = await pool.request({ origin, method: spec.method ?? 'GET', path: spec.path, headers: spec.headers, body: spec.body });
      const body = options.keepBodies ? Buffer.from(await res.body.arrayBuffer()) : (await res.body.dump(), null);
      options.onAnswer?.(res.statusCode, body);
      return res.statusCode;
    });
  } finally {
    await pool.destroy();
  }
}

export interface CapacityOptions {
  targetP99Ms: number;
  /** The rung of the ladder (lib/ladder.ts) tried first. */
  start: number;
  /** The lowest rung the search steps down to when its first rung breaks. */
  floor: number;
  /** The highest rung it climbs to: a search still holding there has not found the target's limit. */
  top: number;
  /** Called before each step (to snapshot process counters) and after it with the result. */
  around?: { before(): void; after(step: StepResult): void };
}

export interface Capacity {
  /** The highest offered rate whose p99 stayed within the target with no errors and kept up (0 when none did). */
  sustainedRps: number;
  /** The step at that rate. */
  atSustained: StepResult | null;
  steps: StepResult[];
  targetP99Ms: number;
  /** The search stopped at its top rung still holding: the capacity is at least sustainedRps. */
  reachedCap: boolean;
}

/** A step holds when it answered everything, kept pace with the offered rate and stayed under the p99 target. */
export const holds = (step: StepResult, targetP99Ms: number) =>
  step.errors === 0 && step.achievedRps >= step.offeredRps * 0.9 && step.p99 <= targetP99Ms && step.keptUp !== false;

/**
 * Steps the rate up the ladder, one rung (×1.4) at a time from `start`,
 * until p99 breaks the target: the capacity of the target at that latency
 * is the last rung that held. No rung above `top` is tried. Should the start
 * rung itself break, the search steps down until a rung holds (or the floor
 * breaks too): the rung above it has already broken, so that is the figure.
 */
export async function capacityOf(runStep: (rate: number) => Promise<StepResult>, options: CapacityOptions): Promise<Capacity> {
  const steps: StepResult[] = [];
  const attempt = async (rate: number) => {
    options.around?.before();
    const step = await runStep(rate);
    options.around?.after(step);
    steps.push(step);
    return step;
  };
  let atSustained: StepResult | null = null;
  let reachedCap = false;
  let broke = Number.POSITIVE_INFINITY;
  for (let k = Math.max(options.floor, Math.min(options.start, options.top)); ; ) {
    let step = await attempt(rateOf(k));
    // Once more before giving up: on a shared machine one stall (a GC, a neighbour) can break
    // a p99 that the target meets; a rate beyond the capacity breaks it every time.
    if (!holds(step, options.targetP99Ms)) step = await attempt(rateOf(k));
    if (holds(step, options.targetP99Ms)) {
      atSustained = step;
      if (k >= options.top) {
        reachedCap = true;
        break;
      }
      if (k + 1 >= broke) break;
      k++;
    } else {
      broke = k;
      if (atSustained || k <= options.floor) break;
      k--;
    }
  }
  return { sustainedRps: atSustained?.offeredRps ?? 0, atSustained, steps, targetP99Ms: options.targetP99Ms, reachedCap };
}

/**
 * Where a search should start: short steps two rungs apart from the floor
 * until one breaks (or the top holds). Not a figure — one-second steps are
 * too short to trust — only the rung under which the real searches begin,
 * so they spend their five-second steps near the limit, not climbing to it.
 */
export async function probeRung(
  runStep: (rate: number) => Promise<StepResult>,
  options: Pick<CapacityOptions, 'floor' | 'top' | 'targetP99Ms'>,
): Promise<{ held: number | null; steps: StepResult[] }> {
  const steps: StepResult[] = [];
  let held: number | null = null;
  for (let k = options.floor; ; k = Math.min(k + 2, options.top)) {
    const step = await runStep(rateOf(k));
    steps.push(step);
    if (!holds(step, options.targetP99Ms)) break;
    held = k;
    if (k >= options.top) break;
  }
  return { held, steps };
}
