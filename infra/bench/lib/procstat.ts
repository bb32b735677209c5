import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * What each process of the product spends: CPU time from /proc/<pid>/stat
 * (user + system, in clock ticks) and peak resident memory from
 * /proc/<pid>/status (VmHWM). Linux only — the bench runs where the product
 * runs. CPU-ms per request is the CPU a process spent during a step divided
 * by the requests of that step, so it includes its background work (relays,
 * consumers) at that load, which is the honest cost.
 */

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU milliseconds a process has used so far (user + system), or null once it is gone. */
export function cpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return ((utime + stime) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Peak resident set size in MB (VmHWM), or null once the process is gone. */
export function peakRssMb(pid: number): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

export interface Measured {
  name: string;
  pid: number;
}

export interface ProcessCost {
  process: string;
  /** CPU ms spent in the window divided by the requests of the window. */
  cpuMsPerRequest: number | null;
  /** CPU ms spent in the window, in all. */
  cpuMs: number | null;
}

/** Snapshots the CPU counters of a set of processes around a window of work. */
export class ProcessMeter {
  private start = new Map<string, number | null>();

  constructor(private readonly processes: Measured[]) {}

  /** The servers by name and the bench process itself (the load generator), so its own share is visible. */
  static of(processes: Measured[]): ProcessMeter {
    return new ProcessMeter([...processes, { name: 'load generator (bench)', pid: process.pid }]);
  }

  begin(): void {
    this.start = new Map(this.processes.map((p) => [p.name, cpuMs(p.pid)]));
  }

  /** CPU per request of every process that did anything in the window (≥ 1 ms). */
  end(requests: number): ProcessCost[] {
    return this.processes
      .map((p) => {
        const before = this.start.get(p.name);
        const now = cpuMs(p.pid);
        const spent = before == null || now == null ? null : now - before;
        return { process: p.name, cpuMs: spent, cpuMsPerRequest: spent === null || requests === 0 ? null : spent / requests };
      })
      .filter((c) => c.cpuMs === null || c.cpuMs >= 1);
  }

  /** Peak RSS of every process since it started. */
  peaks(): Array<{ process: string; peakRssMb: number | null }> {
    return this.processes.map((p) => ({ process: p.name, peakRssMb: peakRssMb(p.pid) }));
  }
}
