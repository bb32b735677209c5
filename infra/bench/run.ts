import { connectBus, createLogger, createTokenService, DEV_SIGNING_KEY, deleteStreams } from '@hoptrack/runtime';
import { Redis } from 'ioredis';
import pg from 'pg';
import { keepLastLines } from '@hoptrack/testing/processes';
import { BENCH_NAMESPACES, keyPatternsOf, pgBase, startStack, type Stack } from '@hoptrack/testing/stack';
import type { BenchContext, Benchmark } from './lib/context';
import { FULL_SEARCH, SMOKE_SEARCH } from './lib/ladder';
import { conditionsSummary } from './lib/conditions';
import { machineInfo } from './lib/machine';
import { ProcessMeter } from './lib/procstat';
import type { Section } from './lib/report';
import { writeResults } from './lib/write';
import { benchDatabases, COMMUNITY_SUFFIX, copyDatabases } from './lib/bench-databases';
import { COMMUNITY_SCALE, FULL_SCALE, loadedSeedInfo, seed, SMOKE_SCALE, userId, type Scale } from './seed';
import { benchGatewayHop } from './gateway-hop';
import { benchFeedRead } from './feed-read';
import { benchSessionCreate } from './session-create';
import { benchFanout } from './fanout';
import { benchEvents } from './events';
import { benchThumbnails } from './thumbnails';
import { benchNearby } from './nearby';
import { benchNotifications } from './notifications';
import { benchWeb } from './web';
import { benchCost } from './cost';
import { benchErasure } from './erasure';

/**
 * `make bench`: seeds the data set into a stack of its own (databases
 * `*_bench`, bus namespace `bench`), runs every benchmark beside its
 * reference — the stack at production's log level, every capacity three
 * searches on one ladder (lib/ladder.ts) — and writes
 * bench/results/<date>.json and the table in docs/benchmarks.md. `--smoke`
 * (CI) runs the same code on a tiny data set with 1-second steps and one
 * short search per capacity, and writes nothing but a JSON in a temp folder.
 * `--only=feed,fanout` runs a subset (while working on one figure).
 * BENCH_SCALE=community runs it on COMMUNITY_SCALE (100,000 people), copied
 * from the databases `make bench-load` loaded (docs/benchmarks.md).
 */
const args = process.argv.slice(2);
const smoke = args.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
const scaleName = process.env.BENCH_SCALE ?? (smoke ? 'smoke' : 'full');
const SCALES: Record<string, Scale> = { smoke: SMOKE_SCALE, full: FULL_SCALE, community: COMMUNITY_SCALE };
const scale = SCALES[scaleName];
if (!scale) throw new Error(`BENCH_SCALE=${scaleName}: one of ${Object.keys(SCALES).join(', ')}`);
const label = args.find((a) => a.startsWith('--label='))?.slice('--label='.length);

const BENCHMARKS: Array<[string, Benchmark]> = [
  ['gateway-hop', benchGatewayHop],
  ['feed-read', benchFeedRead],
  ['session-create', benchSessionCreate],
  ['fanout', benchFanout],
  ['events', benchEvents],
  ['thumbnails', benchThumbnails],
  ['nearby', benchNearby],
  ['notifications', benchNotifications],
  ['cost', benchCost],
  ['web', benchWeb],
  // Last: it erases people, and stores 10 M events for a while.
  ['erasure', benchErasure],
];

const namespace = smoke ? BENCH_NAMESPACES.smoke : BENCH_NAMESPACES.full;
const suffix = `_${namespace}`;
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const databases = {
  auth: `${pgBase()}/hoptrack_auth${suffix}`,
  socialGraph: `${pgBase()}/hoptrack_social_graph${suffix}`,
  sessions: `${pgBase()}/hoptrack_sessions${suffix}`,
  media: `${pgBase()}/hoptrack_media${suffix}`,
  messaging: `${pgBase()}/hoptrack_messaging${suffix}`,
  places: `${pgBase()}/hoptrack_places${suffix}`,
  notifications: `${pgBase()}/hoptrack_notifications${suffix}`,
  // Nothing seeds it: listed so that reset() drops it too, and each run starts without an earlier run's progress.
  challenges: `${pgBase()}/hoptrack_challenges${suffix}`,
};
/**
 * Production's level (LOG_LEVEL=info in deploy/k8s and docker-compose.yml, and the
 * runtime's default): a request log line costs the process that writes it, so it is in the figures.
 */
const logLevel = process.env.BENCH_LOG_LEVEL ?? 'info';
const log = (message: string) => process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);

/** A fresh start: no databases, timelines, queues or streams left from an earlier run. */
async function reset(): Promise<void> {
  const admin = new pg.Client({ connectionString: `${pgBase()}/postgres` });
  await admin.connect();
  // Auth's erasure ledger lives beside its database (`<auth database>_erasure_ledger`, services/auth/src/config.ts).
  for (const url of [...Object.values(databases), `${databases.auth}_erasure_ledger`]) {
    await admin.query(`DROP DATABASE IF EXISTS "${new URL(url).pathname.slice(1)}" WITH (FORCE)`);
  }
  await admin.end();
  const redis = new Redis(redisUrl);
  for (const pattern of keyPatternsOf(namespace)) {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  }
  redis.disconnect();
  const bus = await connectBus({ url: natsUrl, name: 'bench-reset', namespace, logger: createLogger('bench', 'silent') });
  await deleteStreams(bus);
  await bus.close();
}

const started = performance.now();
const startedAt = new Date().toISOString();
log(`${smoke ? 'smoke' : 'full'} run on the ${scaleName} scale${only ? ` (only ${only.join(', ')})` : ''}`);
await reset();
// The community set is loaded once (make bench-load, the better part of an hour) and copied for each run.
const community = scaleName === 'community';
if (community) {
  log("copying the community data set (make bench-load's databases)");
  const copyStarted = performance.now();
  await copyDatabases(benchDatabases(COMMUNITY_SUFFIX), benchDatabases(suffix));
  log(`copied in ${((performance.now() - copyStarted) / 1000).toFixed(0)} s`);
}
log('starting the stack');
let stack: Stack | undefined;
const sections: Section[] = [];
// Every process's output is read off its pipe as production's log collector reads stdout,
// but only the last lines are kept (for the error report below), not a run's worth of request logs.
keepLastLines(2000);
try {
  stack = await startStack({
    namespace,
    databaseSuffix: suffix,
    serveWeb: true,
    env: {
      LOG_LEVEL: logLevel,
      // One client from one address: the per-IP limit would answer 429 within a second.
      GATEWAY_RATE_LIMIT_MAX: '1000000000',
      // Production's pool (the runtime's default), not the tests' smaller one.
      DATABASE_POOL_MAX: '10',
    },
  });
  log(`stack up, logging at ${logLevel}; seeding`);
  const seedInfo = community ? await loadedSeedInfo(scale, databases) : await seed(scale, databases);
  log(
    `seeded ${seedInfo.scale.users} people, ${seedInfo.friendships} friendships, ${seedInfo.scale.sessions} sessions (${seedInfo.photos} with a photo), ` +
      `${seedInfo.blocks} blocks, ${seedInfo.mutes} mutes in ${seedInfo.seconds.toFixed(1)} s; median reader ${seedInfo.reader} (${seedInfo.readerFriends} friends), ` +
      `heavy reader ${seedInfo.heavyReader} (${seedInfo.heavyReaderFriends})`,
  );
  const tokens = await createTokenService({ keys: [DEV_SIGNING_KEY] });
  const running = stack;
  const ctx: BenchContext = {
    smoke,
    stack: running,
    namespace,
    databases,
    redisUrl,
    natsUrl,
    seed: seedInfo,
    meter: ProcessMeter.of([
      { name: 'gateway', pid: running.gateway.child.pid ?? 0 },
      ...Object.values(running.services).map((p) => ({ name: p.name, pid: p.child.pid ?? 0 })),
    ]),
    token: (i) => tokens.sign({ userId: userId(i), tokenVersion: 0 }),
    stepSeconds: smoke ? 1 : Number(process.env.BENCH_STEP_SECONDS ?? 5),
    search: smoke ? SMOKE_SEARCH : FULL_SEARCH,
    logLevel,
    log,
  };
  for (const [id, bench] of BENCHMARKS) {
    if (only && !only.includes(id)) continue;
    log(`${id}…`);
    const t = performance.now();
    try {
      sections.push(await bench(ctx));
    } catch (err) {
      log(`${id} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      // The servers' own errors say why; show the last few of each.
      for (const proc of [running.gateway, ...Object.values(running.services)]) {
        const errors = proc.lines.filter((line) => /"level":(50|60)/.test(line)).slice(-3);
        for (const line of errors) log(`  [${proc.name}] ${line.slice(0, 2000)}`);
      }
      sections.push({ id, title: id, comparisons: [], details: { error: err instanceof Error ? err.message : String(err) } });
    }
    log(`${id} done in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  }
  const file = await writeResults({
    smoke,
    startedAt,
    only,
    label,
    machine: await machineInfo({ redisUrl, natsUrl, pgUrl: databases.sessions }),
    seed: seedInfo,
    durationSeconds: (performance.now() - started) / 1000,
    logLevel,
    sections,
    peakRss: ctx.meter.peaks(),
    conditions: conditionsSummary(),
  });
  log(`results in ${file}`);
} finally {
  await stack?.stop();
  // The machine as it was found: a run's databases, keys and streams would slow everything after it (the next
  // test run's erasure search reads all of Redis; CI runs on the machine a session leaves). BENCH_KEEP=1 keeps them.
  if (!process.env.BENCH_KEEP) await reset();
}
// A section fails when it threw, or (the smoke's check that the harness works) when it produced a figure that is not a number.
const broken = (s: Section) => s.comparisons.length === 0 || s.comparisons.some((c) => !Number.isFinite(c.value) || !Number.isFinite(c.referenceValue));
const failed = sections.filter((s) => (s.details && 'error' in s.details) || broken(s));
log(`finished in ${((performance.now() - started) / 60_000).toFixed(1)} min${failed.length ? `; failed: ${failed.map((s) => s.id).join(', ')}` : ''}`);
process.exit(failed.length > 0 ? 1 : 0);
