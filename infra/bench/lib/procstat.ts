import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * What each process of the product spends: CPU time from /proc/<pid>/stat
 * (user + system, in clock ticks) and peak resident memory from
 * /proc/<pid>/status (VmHWM). Linux only — the bench runs where the product
 * runs. CPU-ms per request is the CPU a process spent during a step divided
 * by the requests of that step, so it includes its background work (relays,
 * consumers) at that load, which is the honest cost. Postgres, Redis and
 * NATS are counted the same way, by process name: what a request costs
 * includes the engines it runs on.
 */

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces), or null once it is gone. */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** CPU milliseconds a process has used so far (user + system), or null once it is gone. */
export function cpuMs(pid: number): number | null {
  const fields = statFields(pid);
  return fields ? ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND : null;
}

/**
 * The same plus what its exited children used (cutime + cstime): a Postgres
 * backend that ends during a window hands its CPU to the postmaster's
 * counters when it is reaped, so the sum over a server's processes loses nothing.
 */
function cpuMsWithChildren(pid: number): number | null {
  const fields = statFields(pid);
  return fields ? ((Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND : null;
}

/** Every process whose name (/proc/<pid>/comm) is `comm`: a server that forks (Postgres) is many. */
function pidsNamed(comm: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === comm) pids.push(Number(entry));
    } catch {
      // gone since the listing
    }
  }
  return pids;
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

/** A server measured by process name, every process of that name together (the engines the stack runs on). */
export interface MeasuredByName {
  name: string;
  comm: string;
}

/** The engines: every `postgres` process (postmaster and backends), `redis-server` and `nats-server`. */
export const ENGINES: MeasuredByName[] = [
  { name: 'postgres', comm: 'postgres' },
  { name: 'redis', comm: 'redis-server' },
  { name: 'nats', comm: 'nats-server' },
];

/** The row of the bench process itself. */
export const LOAD_GENERATOR = 'load generator (bench)';

export interface ProcessCost {
  process: string;
  /** CPU ms spent in the window divided by the requests of the window. */
  cpuMsPerRequest: number | null;
  /** CPU ms spent in the window, in all. */
  cpuMs: number | null;
}

/**
 * Snapshots the CPU counters of a set of processes around a window of work.
 * The engines are servers shared with anything else on the machine: their
 * rows count all they did in the window, the run's work and any other.
 */
export class ProcessMeter {
  private start = new Map<string, number | null>();
  private engineStart = new Map<string, Map<number, number>>();

  constructor(
    private readonly processes: Measured[],
    private readonly engines: MeasuredByName[] = [],
  ) {}

  /** The servers by name, the engines, and the bench process itself (the load generator), so its own share is visible. */
  static of(processes: Measured[]): ProcessMeter {
    return new ProcessMeter([...processes, { name: LOAD_GENERATOR, pid: process.pid }], ENGINES);
  }

  begin(): void {
    this.start = new Map(this.processes.map((p) => [p.name, cpuMs(p.pid)]));
    this.engineStart = new Map(this.engines.map((e) => [e.name, engineCounters(e.comm)]));
  }

  /** CPU per request of every process that did anything in the window (≥ 1 ms). */
  end(requests: number): ProcessCost[] {
    const perRequest = (spent: number | null) => (spent === null || requests === 0 ? null : spent / requests);
    const own = this.processes.map((p) => {
      const before = this.start.get(p.name);
      const now = cpuMs(p.pid);
      const spent = before == null || now == null ? null : now - before;
      return { process: p.name, cpuMs: spent, cpuMsPerRequest: perRequest(spent) };
    });
    const engines = this.engines.flatMap((e) => {
      const before = this.engineStart.get(e.name);
      const now = engineCounters(e.comm);
      // Not running here (a remote server): no row rather than a zero.
      if (!before || (before.size === 0 && now.size === 0)) return [];
      // A process born during the window counts from zero; one gone is in its parent's children's counters.
      let spent = 0;
      for (const [pid, ms] of now) spent += ms - (before.get(pid) ?? 0);
      for (const [pid, ms] of before) if (!now.has(pid)) spent -= ms;
      return [{ process: e.name, cpuMs: spent, cpuMsPerRequest: perRequest(spent) }];
    });
    return [...own, ...engines].filter((c) => c.cpuMs === null || c.cpuMs >= 1);
  }

  /** Peak RSS of every process of ours since it started (the engines' shared memory would make a sum meaningless). */
  peaks(): Array<{ process: string; peakRssMb: number | null }> {
    return this.processes.map((p) => ({ process: p.name, peakRssMb: peakRssMb(p.pid) }));
  }
}

/** CPU ms so far, children's included, of every process named `comm`, by pid. */
function engineCounters(comm: string): Map<number, number> {
  const counters = new Map<number, number>();
  for (const pid of pidsNamed(comm)) {
    const ms = cpuMsWithChildren(pid);
    if (ms !== null) counters.set(pid, ms);
  }
  return counters;
}
