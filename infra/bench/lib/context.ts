import type { Stack } from '../../testing/stack';
import type { BenchDatabase, SeedInfo } from '../seed';
import type { SearchPlan } from './ladder';
import type { ProcessMeter } from './procstat';
import type { Section } from './report';

/** What every benchmark gets from the runner (infra/bench/run.ts). */
export interface BenchContext {
  /** The 1-minute CI smoke: tiny data, short steps, no figures worth keeping. */
  smoke: boolean;
  /** The whole product, started like `make dev` (services, workers, gateway serving web/dist). */
  stack: Stack;
  /** Bus namespace and Redis key prefix of this run. */
  namespace: string;
  /** postgres:// URLs of the services' databases for this run. */
  databases: Record<BenchDatabase, string>;
  redisUrl: string;
  natsUrl: string;
  seed: SeedInfo;
  /** CPU and peak RSS of every process of the stack (and of the bench itself). */
  meter: ProcessMeter;
  /** A valid bearer token for seeded person `i` (1-based; 1 is the celebrity). */
  token(i: number): Promise<string>;
  /** Seconds per open-loop step (5 in a full run, 1 in the smoke). */
  stepSeconds: number;
  /** How capacity searches run on the ladder (lib/ladder.ts): three runs to the limit, one short one in the smoke. */
  search: SearchPlan;
  /** The stack's LOG_LEVEL: production's (info) unless BENCH_LOG_LEVEL says otherwise. */
  logLevel: string;
  log(message: string): void;
}

export type Benchmark = (ctx: BenchContext) => Promise<Section>;
