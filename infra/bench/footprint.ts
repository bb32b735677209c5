import { readFileSync } from 'node:fs';
import { startProcess, type RunningProcess } from '@hoptrack/testing/processes';
import { startStack, type Stack } from '@hoptrack/testing/stack';
import { machineInfo } from './lib/machine';

/**
 * `make footprint`: what one process of each kind costs when nobody uses it,
 * compiled (`node dist/…`, as production runs) beside its reference, the same
 * process from TypeScript through tsx (as everything ran before issue 20).
 *
 *   idle RSS    resident memory 60 s after the whole stack was ready, no traffic
 *   cold start  spawn to the first 200 from /readyz (database, bus and Redis
 *               connected; databases already migrated), median of three starts
 *
 * Prints a Markdown table for docs/benchmarks.md ('Process footprint').
 */
const IDLE_MS = Number(process.env.FOOTPRINT_IDLE_MS ?? 60_000);
const STARTS = 3;

const rssMiB = (proc: RunningProcess) => {
  const status = readFileSync(`/proc/${proc.child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function measure(mode: 'dist' | 'source'): Promise<Map<string, { rss: number; start: number }>> {
  process.env.RUN_FROM = mode;
  const stack: Stack = await startStack({ serveWeb: false, env: { LOG_LEVEL: 'info' } });
  const results = new Map<string, { rss: number; start: number }>();
  try {
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const all: Array<[string, RunningProcess]> = [...Object.entries(stack.services), ['gateway', stack.gateway]];
    for (const [name, proc] of all) results.set(name, { rss: rssMiB(proc), start: 0 });
    for (const [name, first] of all) {
      let proc = first;
      const times: number[] = [];
      for (let i = 0; i < STARTS; i++) {
        await proc.stop();
        const started = performance.now();
        proc = await startProcess({ ...proc.options, readyPath: '/readyz' });
        times.push(performance.now() - started);
      }
      await proc.stop();
      const entry = results.get(name);
      if (entry) entry.start = median(times);
    }
  } finally {
    await stack.stop();
  }
  return results;
}

const machine = await machineInfo({
  pgUrl: process.env.PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
});
const compiled = await measure('dist');
const source = await measure('source');
const lines = [
  `Process footprint, ${new Date().toISOString().slice(0, 10)}, ${machine.cpu} (${machine.cores} cores), ${machine.memoryGiB} GiB, Node ${machine.node}, load ${machine.loadAtStart}; idle RSS after ${IDLE_MS / 1000} s, cold start median of ${STARTS}.`,
  '',
  '| Process | Idle RSS, compiled | Idle RSS, tsx (reference) | Cold start to ready, compiled | Cold start, tsx (reference) |',
  '| --- | --- | --- | --- | --- |',
  ...[...compiled].map(([name, c]) => {
    const s = source.get(name);
    return `| ${name} | ${c.rss.toFixed(0)} MiB | ${s?.rss.toFixed(0)} MiB | ${(c.start / 1000).toFixed(2)} s | ${((s?.start ?? 0) / 1000).toFixed(2)} s |`;
  }),
];
process.stdout.write(`${lines.join('\n')}\n`);
