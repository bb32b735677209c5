/**
 * The one ladder of rates every capacity search of a run steps on: rung k is
 * 25 × 1.4^k, rounded — 25, 35, 49, 69, 96, 134, 188, 264, 369, 517, 723,
 * 1,012, 1,417, 1,984, 2,778, 3,889, 5,445, 7,623, 10,672, 14,941, 20,917,
 * 29,284, 40,997, … A figure and its reference climb the same rungs, so
 * their ratio compares two measurements made at the same rates, never two
 * ladders' rounding, and no reference is held down by a ladder's top.
 */
export const LADDER_BASE = 25;
export const LADDER_FACTOR = 1.4;

/** The rate of rung k. */
export const rateOf = (k: number): number => Math.round(LADDER_BASE * LADDER_FACTOR ** k);

/** The lowest rung whose rate is at least `rate`: the floor of a search that should not start below it. */
export function rungAtOrAbove(rate: number): number {
  let k = 0;
  while (rateOf(k) < rate) k++;
  return k;
}

/**
 * How the runner searches (BenchContext.search). A full run measures every
 * capacity three times and stops a search only at a rung no Node load
 * generator on one machine reaches (about 80,000 rps), so in practice every
 * search ends where its target broke; the smoke searches once and climbs
 * one rung above the floor, so its "≥" shows that path works.
 */
export interface SearchPlan {
  /** Independent searches per figure; the figure is their median. */
  runs: number;
  /** Seconds per step of the probe that finds where the searches start. */
  probeSeconds: number;
  /** The highest rung a search whose floor is `floor` may climb to; one still holding there reports "≥". */
  top(floor: number): number;
}

/** Rung 24: 80,355 rps. */
const FULL_TOP = 24;

export const FULL_SEARCH: SearchPlan = { runs: 3, probeSeconds: 1, top: () => FULL_TOP };
export const SMOKE_SEARCH: SearchPlan = { runs: 1, probeSeconds: 0.5, top: (floor) => floor + 1 };
