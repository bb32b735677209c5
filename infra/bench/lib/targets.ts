import type { BenchContext } from './context';
import { capacityOf, openLoop, type Capacity, type CapacityOptions, type StepResult } from './load';
import type { ProcessCost } from './procstat';
import { ProcessMeter } from './procstat';

/**
 * Runs a capacity search with CPU accounting around every step, keeping the
 * costs of the step at the sustained rate: what each process spent per
 * request at the highest load that still met the target.
 */
export async function measuredCapacity(
  meter: ProcessMeter,
  origin: string,
  options: Omit<CapacityOptions, 'around'>,
): Promise<{ capacity: Capacity; costs: ProcessCost[] }> {
  return measuredCapacityOf(meter, (rate) => openLoop(origin, { ...options, rate }), options);
}

/** The same for any step (SQL inserts, queue jobs). */
export async function measuredCapacityOf(
  meter: ProcessMeter,
  runStep: (rate: number) => Promise<StepResult>,
  options: Pick<CapacityOptions, 'rates' | 'targetP99Ms'>,
): Promise<{ capacity: Capacity; costs: ProcessCost[] }> {
  let costs: ProcessCost[] = [];
  let last: ProcessCost[] = [];
  const result = await capacityOf(runStep, {
    ...options,
    around: {
      before: () => meter.begin(),
      after: (step) => {
        last = meter.end(step.requests);
        if (step.errors === 0 && step.p99 <= options.targetP99Ms) costs = last;
      },
    },
  });
  return { capacity: result, costs: costs.length > 0 ? costs : last };
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
