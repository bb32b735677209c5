import type { BenchContext } from './context';
import { LOAD_GENERATOR, ProcessMeter, type Measured, type ProcessCost } from './procstat';
import { compare, type Comparison } from './report';

/** Every process of the stack, each copy, the gateway first (the engines are added by ProcessMeter.of). */
export function stackProcesses(ctx: BenchContext): Measured[] {
  const copies = Object.entries(ctx.stack.instances).flatMap(([name, list]) => list.map((p, i) => ({ name: list.length > 1 ? `${name} #${i + 1}` : name, pid: p.child.pid ?? 0 })));
  return [{ name: 'gateway', pid: ctx.stack.gateway.child.pid ?? 0 }, ...copies];
}

/** The CPU-ms of a window over every process of the stack and its engines, the load generator's left out. */
export const stackCpu = (costs: ProcessCost[]): number => costs.filter((c) => c.process !== LOAD_GENERATOR).reduce((sum, c) => sum + (c.cpuMs ?? 0), 0);

/** The stack's CPU with nobody using it, in cores (CPU-ms per ms), over `seconds`. */
export async function measureIdle(ctx: BenchContext, seconds: number): Promise<{ cores: number; costs: ProcessCost[]; ms: number }> {
  const meter = ProcessMeter.of(stackProcesses(ctx));
  meter.begin();
  const started = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const costs = meter.end(1);
  const ms = performance.now() - started;
  return { cores: stackCpu(costs) / ms, costs, ms };
}

/**
 * Until the stack is quiet again after some work (relays, consumers, fan-out,
 * purgers finishing): a second whose whole-stack CPU is within 50 % of the
 * idle stack's, or `boundMs` at most.
 */
export async function untilQuiet(ctx: BenchContext, idle: number, boundMs = 30_000): Promise<{ quiet: boolean; ms: number }> {
  const started = performance.now();
  for (;;) {
    const probe = ProcessMeter.of(stackProcesses(ctx));
    probe.begin();
    await new Promise((r) => setTimeout(r, 1_000));
    const quiet = stackCpu(probe.end(1)) / 1000 <= idle * 1.5 + 0.01;
    const ms = performance.now() - started;
    if (quiet || ms > boundMs) return { quiet, ms };
  }
}

/** A cost row of issue 41: beside the goal, not a tool measured in the same run. */
export const againstGoal = (c: Omit<Comparison, 'ratio' | 'reference'>): Comparison => ({
  ...compare({ ...c, reference: 'the goal (issue 41)' }),
  referenceIsGoal: true,
});
