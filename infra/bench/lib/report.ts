import type { ProcessCost } from './procstat';
import type { StepResult } from './load';
import type { CapacityFigure } from './targets';
import type { ReferenceCheck } from './validity';

/**
 * The shape of bench/results/<date>.json and what the markdown table is made
 * from. Every figure stands beside a reference measured in the same run on
 * the same machine; the ratio is what to compare across machines.
 */

export interface Comparison {
  /** What was measured ("feed read through the gateway, rps at p99 ≤ 50 ms"). */
  measure: string;
  value: number;
  unit: string;
  /** The reference it is compared with, measured in the same run. */
  reference: string;
  referenceValue: number;
  /** value ÷ referenceValue. */
  ratio: number;
  note?: string;
  /** A capacity measured several times: value is the median run's, these are every run's and their range. */
  runs?: number[];
  spread?: { min: number; max: number };
  referenceRuns?: number[];
  referenceSpread?: { min: number; max: number };
  /** The search never saw its target break (the ladder's top, or the load generator ran out first): the value is a floor, "≥" in the table. */
  atLeast?: boolean;
  referenceAtLeast?: boolean;
  /** The reference is a goal to reach (issue 41's cost rows), not a tool measured beside: it says nothing of the machine. */
  referenceIsGoal?: boolean;
  /** The reference against this machine kind's earlier runs (lib/validity.ts); set when the results are written. */
  referenceCheck?: ReferenceCheck;
}

export interface Section {
  id: string;
  title: string;
  comparisons: Comparison[];
  /** CPU per request of each process at the measured load (where the figure is a request rate). */
  costs?: Array<{ at: string } & ProcessCost>;
  /** Anything else worth keeping: every step of a rate search, sizes, counts. */
  details?: Record<string, unknown>;
}

export const compare = (c: Omit<Comparison, 'ratio'>): Comparison => ({ ...c, ratio: c.referenceValue === 0 ? 0 : c.value / c.referenceValue });

/** A step or capacity search without its noise, for the JSON. */
export const stepSummary = (s: StepResult) => ({
  offeredRps: s.offeredRps,
  achievedRps: Math.round(s.achievedRps),
  requests: s.requests,
  errors: s.errors,
  p50: round(s.p50),
  p99: round(s.p99),
  max: round(s.max),
  ...(s.errors > 0 ? { statuses: s.statuses } : {}),
  ...(s.conditions ? { conditions: s.conditions } : {}),
  ...(s.keptUp === undefined ? {} : { keptUp: s.keptUp }),
});

/** A capacity against a capacity: both the medians of their runs, with their spreads and floors. */
export const compareCapacities = (c: { measure: string; value: CapacityFigure; reference: string; referenceValue: CapacityFigure; note?: string }): Comparison => ({
  ...compare({ measure: c.measure, value: c.value.rps, unit: 'rps', reference: c.reference, referenceValue: c.referenceValue.rps, note: c.note }),
  ...figureFields(c.value),
  referenceRuns: c.referenceValue.runs.map((r) => r.capacity.sustainedRps),
  referenceSpread: c.referenceValue.spread,
  referenceAtLeast: c.referenceValue.atLeast,
});

/** The runs, spread and floor of a capacity as a comparison's value. */
export const figureFields = (f: CapacityFigure): Pick<Comparison, 'runs' | 'spread' | 'atLeast'> => ({
  runs: f.runs.map((r) => r.capacity.sustainedRps),
  spread: f.spread,
  atLeast: f.atLeast,
});

/** A capacity figure for the JSON: the median, the spread, why a floor is a floor, and every step of the probe and of each run. */
export const capacitySummary = (f: CapacityFigure) => ({
  sustainedRps: f.rps,
  spread: f.spread,
  atLeast: f.atLeast,
  reachedCap: f.median.capacity.reachedCap,
  generatorBound: f.median.generatorBound,
  targetP99Ms: f.median.capacity.targetP99Ms,
  probe: f.probe.map((s) => ({ offeredRps: s.offeredRps, achievedRps: Math.round(s.achievedRps), errors: s.errors, p99: round(s.p99) })),
  runs: f.runs.map((r) => ({
    sustainedRps: r.capacity.sustainedRps,
    reachedCap: r.capacity.reachedCap,
    generatorBusy: r.generatorBusy === null ? null : round(r.generatorBusy),
    generatorBound: r.generatorBound,
    steps: r.capacity.steps.map(stepSummary),
  })),
});

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** A figure measured several times as a comparison's value: the median, every run and their range (the table shows "median (min–max)"). */
export function medianOf(values: number[], digits: number): Pick<Comparison, 'value' | 'runs' | 'spread'> {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    value: round(sorted[Math.floor(sorted.length / 2)] ?? 0, digits),
    runs: values.map((v) => round(v, digits)),
    spread: { min: round(sorted[0] ?? 0, digits), max: round(sorted[sorted.length - 1] ?? 0, digits) },
  };
}
