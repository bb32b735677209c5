import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { connect } from 'nats';
import { Redis } from 'ioredis';
import pg from 'pg';

/** The machine and versions a run came from, written beside every figure. */
export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGiB: number;
  kernel: string;
  node: string;
  postgres: string;
  redis: string;
  nats: string;
  chromium: string;
  /** The 1-minute load average when the run started: a busy machine shows here. */
  loadAtStart: number;
}

const quiet = (run: () => string) => {
  try {
    return run();
  } catch {
    return 'unknown';
  }
};

export async function machineInfo(urls: { pgUrl: string; redisUrl: string; natsUrl: string }): Promise<MachineInfo> {
  const db = new pg.Client({ connectionString: urls.pgUrl });
  await db.connect();
  const postgres = (await db.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]?.v ?? 'unknown';
  await db.end();
  const redis = new Redis(urls.redisUrl);
  const redisVersion = /redis_version:(\S+)/.exec(await redis.info('server'))?.[1] ?? 'unknown';
  redis.disconnect();
  const nc = await connect({ servers: urls.natsUrl });
  const natsVersion = nc.info?.version ?? 'unknown';
  await nc.close();
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    kernel: release(),
    node: process.version,
    postgres,
    redis: redisVersion,
    nats: natsVersion,
    chromium: quiet(() => execFileSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim()),
    loadAtStart: Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]),
  };
}

export const describeMachine = (m: MachineInfo) =>
  `${m.cores} × ${m.cpu}, ${m.memoryGiB} GiB, Linux ${m.kernel}, Node ${m.node}, PostgreSQL ${m.postgres}, Redis ${m.redis}, NATS ${m.nats}`;
