import type { BenchContext } from './context';
import { rungAtOrAbove } from './ladder';
import { capacityOf, holds, openLoop, probeRung, type Capacity, type OpenLoopOptions, type StepResult } from './load';
import { LOAD_GENERATOR, type ProcessCost, type ProcessMeter } from './procstat';

/** One open-loop step of some target at a rate, for so many seconds. */
export type RunStep = (rate: number, seconds: number) => Promise<StepResult>;

/** The step of an HTTP target. */
export const httpStep =
  (origin: string, options: Omit<OpenLoopOptions, 'rate' | 'seconds'>): RunStep =>
  (rate, seconds) =>
    openLoop(origin, { ...options, rate, seconds });

/**
 * A search's runs start this many rungs (×1.96) under the best estimate of
 * the limit so far, so each climbs a few five-second steps before it.
 */
const LEAD_RUNGS = 2;
/** The bench process at this share of one core in the step that broke a search: the break may be its own. */
const GENERATOR_BOUND = 0.9;

export interface CapacityRun {
  capacity: Capacity;
  /** Each process's CPU per request at the sustained rung (the last step when none held). */
  costs: ProcessCost[];
  /** The share of one core the bench process used in the step that ended the search (null when none broke). */
  generatorBusy: number | null;
  /**
   * It used ≥ 90 % of a core there: a Node load generator near its own limit
   * is late to send and slow to read, so the break may be the generator's and
   * the figure a floor of the target's capacity.
   */
  generatorBound: boolean;
}

export interface CapacityFigure {
  /** The median run's sustained rate. */
  rps: number;
  runs: CapacityRun[];
  /** The run whose figure is the median: its costs are the ones reported. */
  median: CapacityRun;
  spread: { min: number; max: number };
  /** The median run never saw its target break (the ladder's top, or the load generator ran out first): "≥ rps". */
  atLeast: boolean;
  /** The short steps that chose where the runs start. */
  probe: StepResult[];
}

/**
 * A capacity figure: a probe, then `ctx.search.runs` independent searches on
 * the ladder, each with CPU accounting around every step; the figure is the
 * median run's, with the spread of all. `floorRps` is the lowest rate the
 * searches may try: a figure and its reference pass the same one, so both
 * step on the same rungs from the same floor.
 */
export async function measureCapacity(
  ctx: BenchContext,
  meter: ProcessMeter,
  runStep: RunStep,
  options: { floorRps: number; targetP99Ms: number },
): Promise<CapacityFigure> {
  const floor = rungAtOrAbove(options.floorRps);
  const top = ctx.search.top(floor);
  const probe = await probeRung((rate) => runStep(rate, ctx.search.probeSeconds), { floor, top, targetP99Ms: options.targetP99Ms });
  let estimate = probe.held ?? floor;
  const runs: CapacityRun[] = [];
  for (let i = 0; i < ctx.search.runs; i++) {
    const run = await searchOnce(meter, (rate) => runStep(rate, ctx.stepSeconds), {
      start: Math.max(floor, estimate - LEAD_RUNGS),
      floor,
      top,
      targetP99Ms: options.targetP99Ms,
    });
    runs.push(run);
    estimate = run.capacity.sustainedRps > 0 ? rungAtOrAbove(run.capacity.sustainedRps) : floor;
  }
  const sorted = [...runs].sort((a, b) => a.capacity.sustainedRps - b.capacity.sustainedRps);
  const median = sorted[Math.floor(sorted.length / 2)] as CapacityRun;
  return {
    rps: median.capacity.sustainedRps,
    runs,
    median,
    spread: { min: sorted[0]?.capacity.sustainedRps ?? 0, max: sorted[sorted.length - 1]?.capacity.sustainedRps ?? 0 },
    atLeast: median.capacity.reachedCap || median.generatorBound,
    probe: probe.steps,
  };
}

async function searchOnce(
  meter: ProcessMeter,
  runStep: (rate: number) => Promise<StepResult>,
  options: { start: number; floor: number; top: number; targetP99Ms: number },
): Promise<CapacityRun> {
  let costs: ProcessCost[] = [];
  let last: ProcessCost[] = [];
  const busy: number[] = [];
  const capacity = await capacityOf(runStep, {
    ...options,
    around: {
      before: () => meter.begin(),
      after: (step) => {
        last = meter.end(step.requests);
        const generatorMs = last.find((c) => c.process === LOAD_GENERATOR)?.cpuMs ?? 0;
        busy.push(step.seconds > 0 ? generatorMs / (step.seconds * 1000) : 0);
        if (holds(step, options.targetP99Ms)) costs = last;
      },
    },
  });
  const ended = capacity.steps[capacity.steps.length - 1];
  const broke = !capacity.reachedCap && ended !== undefined && !holds(ended, options.targetP99Ms);
  const generatorBusy = broke ? (busy[busy.length - 1] ?? null) : null;
  return { capacity, costs: costs.length > 0 ? costs : last, generatorBusy, generatorBound: generatorBusy !== null && generatorBusy >= GENERATOR_BOUND };
}

/** "134 rps (96–188)", "≥ 80,355 rps": a figure as the log and the table show it. */
export function describeCapacity(f: CapacityFigure): string {
  const n = (x: number) => x.toLocaleString('en-GB');
  return `${f.atLeast ? '≥ ' : ''}${n(f.rps)} rps${f.runs.length > 1 ? ` (${n(f.spread.min)}–${n(f.spread.max)})` : ''}`;
}

/** One open-loop step at a fixed rate, with CPU accounting. */
export async function measuredStep(
  meter: ProcessMeter,
  origin: string,
  options: Parameters<typeof openLoop>[1],
): Promise<{ step: StepResult; costs: ProcessCost[] }> {
  meter.begin();
  const step = await openLoop(origin, options);
  return { step, costs: meter.end(step.requests) };
}

/** A short warm-up so JIT, pools and caches are in their steady state before anything is counted. */
export async function warmUp(ctx: BenchContext, origin: string, options: Omit<Parameters<typeof openLoop>[1], 'rate' | 'seconds'>): Promise<void> {
  await openLoop(origin, { ...options, rate: ctx.smoke ? 20 : 200, seconds: ctx.smoke ? 0.5 : 2 });
}
