import { Pool } from 'undici';

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

export interface CapacityOptions extends Omit<OpenLoopOptions, 'rate'> {
  /** Rates tried in order; the search stops at the first one that breaks the target. */
  rates: number[];
  targetP99Ms: number;
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
}

/** A step holds when it answered everything, kept pace with the offered rate and stayed under the p99 target. */
export const holds = (step: StepResult, targetP99Ms: number) =>
  step.errors === 0 && step.achievedRps >= step.offeredRps * 0.9 && step.p99 <= targetP99Ms;

/** Steps the rate up until p99 breaks the target: the capacity of the target at that latency. */
export async function capacityOf(
  runStep: (rate: number) => Promise<StepResult>,
  options: Pick<CapacityOptions, 'rates' | 'targetP99Ms' | 'around'>,
): Promise<Capacity> {
  const steps: StepResult[] = [];
  let atSustained: StepResult | null = null;
  for (const rate of options.rates) {
    options.around?.before();
    let step = await runStep(rate);
    options.around?.after(step);
    steps.push(step);
    if (!holds(step, options.targetP99Ms)) {
      // Once more before giving up: on a shared machine one stall (a GC, a neighbour) can break
      // a p99 that the target meets; a rate beyond the capacity breaks it every time.
      options.around?.before();
      step = await runStep(rate);
      options.around?.after(step);
      steps.push(step);
      if (!holds(step, options.targetP99Ms)) break;
    }
    atSustained = step;
  }
  return { sustainedRps: atSustained?.offeredRps ?? 0, atSustained, steps, targetP99Ms: options.targetP99Ms };
}

/** The capacity of an HTTP target. */
export const capacity = (origin: string, options: CapacityOptions) => capacityOf((rate) => openLoop(origin, { ...options, rate }), options);

/** Rates from `from` growing by `factor` up to `to`, rounded: 50, 75, 113, ... */
export function rampRates(from: number, to: number, factor = 1.5): number[] {
  const rates: number[] = [];
  for (let r = from; r <= to; r *= factor) rates.push(Math.round(r));
  return rates;
}
