import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * What the machine was doing during one step of load (issue 41: "measurement
 * you can trust on a shared VM"). A figure from a step where the machine was
 * busy with something else, where the kernel kept runnable work waiting, or
 * where the load generator itself fell behind is not a figure of the
 * product: these say which steps those were.
 */
export interface StepConditions {
  /** Cores the whole machine kept busy in the step (every process, ours or not; /proc/stat). */
  machineCores: number;
  /** Share of the step some runnable task waited for a CPU (/proc/pressure/cpu "some"), 0–1; null where the kernel has no PSI. */
  cpuPressure: number | null;
  /** Cores the load generator (this process) used. */
  generatorCores: number;
  /** The load generator's event-loop delay, p99 ms: a late timer sends its requests late. */
  generatorLagP99Ms: number;
}

/** Busy and total jiffies of the machine, every CPU together (the first line of /proc/stat). */
function machineJiffies(): { busy: number; total: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
    const fields = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal …: idle and iowait are the machine waiting.
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/** Microseconds some task waited for a CPU since boot, or null without PSI. */
function pressureTotalUs(): number | null {
  try {
    const some = /some .*total=(\d+)/.exec(readFileSync('/proc/pressure/cpu', 'utf8'));
    return some ? Number(some[1]) : null;
  } catch {
    return null;
  }
}

/** Every step's conditions in this run, for the run's summary line. */
const seen: StepConditions[] = [];

/** The run's steps in one line each of median and worst (BenchResults.conditions). */
export function conditionsSummary(): { steps: number; machineCoresMax: number; cpuPressureMedian: number | null; cpuPressureMax: number | null; generatorCoresMax: number; generatorLagP99MaxMs: number } {
  const of = (pick: (c: StepConditions) => number | null) => seen.map(pick).filter((v): v is number => v !== null).sort((a, b) => a - b);
  const pressure = of((c) => c.cpuPressure);
  return {
    steps: seen.length,
    machineCoresMax: Math.max(0, ...of((c) => c.machineCores)),
    cpuPressureMedian: pressure.length > 0 ? (pressure[Math.floor(pressure.length / 2)] ?? null) : null,
    cpuPressureMax: pressure.length > 0 ? (pressure[pressure.length - 1] ?? null) : null,
    generatorCoresMax: Math.max(0, ...of((c) => c.generatorCores)),
    generatorLagP99MaxMs: Math.max(0, ...of((c) => c.generatorLagP99Ms)),
  };
}

/** Starts watching; the returned function ends the watch and says what the step's machine was like. */
export function watchConditions(): () => StepConditions {
  const cores = cpus().length;
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const started = performance.now();
  const machine = machineJiffies();
  const pressure = pressureTotalUs();
  const generator = process.cpuUsage();
  return () => {
    lag.disable();
    const wallUs = (performance.now() - started) * 1000;
    const machineNow = machineJiffies();
    const pressureNow = pressureTotalUs();
    const generatorUs = process.cpuUsage(generator);
    const machineShare = machine && machineNow && machineNow.total > machine.total ? (machineNow.busy - machine.busy) / (machineNow.total - machine.total) : 0;
    const conditions = {
      machineCores: round(machineShare * cores),
      cpuPressure: pressure === null || pressureNow === null || wallUs <= 0 ? null : round(Math.min(1, (pressureNow - pressure) / wallUs)),
      generatorCores: wallUs > 0 ? round((generatorUs.user + generatorUs.system) / wallUs) : 0,
      // The histogram is in nanoseconds; a step too short for one sample says 0.
      generatorLagP99Ms: round(Number.isFinite(lag.percentile(99)) ? lag.percentile(99) / 1e6 : 0),
    };
    seen.push(conditions);
    return conditions;
  };
}

const round = (n: number) => Math.round(n * 1000) / 1000;
