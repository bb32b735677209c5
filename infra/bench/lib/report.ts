import type { ProcessCost } from './procstat';
import type { Capacity, StepResult } from './load';

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
});

export const capacitySummary = (c: Capacity) => ({ sustainedRps: c.sustainedRps, targetP99Ms: c.targetP99Ms, steps: c.steps.map(stepSummary) });

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
