import { machine } from './machine';
import { benchNearby, formatStats } from './nearby';

/**
 * `make bench`: every benchmark, its reference beside it, and the machine.
 * Figures belong in docs/benchmarks.md with the machine line they came with.
 * Loops are bounded (BENCH_RUNS) and talk only to local servers.
 */
const runs = Number(process.env.BENCH_RUNS ?? 500);
process.stdout.write(`machine: ${machine()}\n`);
for (const [name, stats] of await benchNearby(runs)) {
  process.stdout.write(`${name.padEnd(60)} ${formatStats(stats)}\n`);
}
