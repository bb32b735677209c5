import { cpus, totalmem } from 'node:os';

/** The machine a figure came from, printed beside every result. */
export function machine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return `${cpus().length} × ${cpu.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

export interface Stats {
  runs: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
}

/** Runs `fn` a fixed number of times (after a warm-up) and summarises the milliseconds. */
export async function measure(runs: number, fn: (i: number) => Promise<unknown>): Promise<Stats> {
  for (let i = 0; i < Math.min(20, runs); i++) await fn(i);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return { runs, p50: at(0.5), p95: at(0.95), p99: at(0.99), mean: times.reduce((a, b) => a + b, 0) / times.length };
}

export const formatStats = (s: Stats) =>
  `p50 ${s.p50.toFixed(2)} ms  p95 ${s.p95.toFixed(2)} ms  p99 ${s.p99.toFixed(2)} ms  (${s.runs} runs)`;
