/**
 * `make bench-load`: the community data set (COMMUNITY_SCALE, seed.ts) loaded
 * by the bulk loader into `hoptrack_<service>_community` (dropped and migrated
 * first), its counts checked, then the time it took and each database's size.
 * No stack is started: the databases are migrated as the services migrate
 * theirs, and `make bench BENCH_SCALE=community` copies them (templates) into
 * the bench's own databases for each run instead of loading again.
 *
 *   npx tsx infra/bench/load.ts                 # 100,000 people (estimated ~20 GB on disk: docs/benchmarks.md)
 *   BENCH_PEOPLE=5000 BENCH_DB_SUFFIX=_est npx tsx infra/bench/load.ts   # the same shape per person, smaller
 */
import { benchDatabases, COMMUNITY_SUFFIX, databaseSizes, freshBenchDatabases } from './lib/bench-databases';
import { COMMUNITY_SCALE, communityScale, seed } from './seed';

const people = Number(process.env.BENCH_PEOPLE ?? COMMUNITY_SCALE.users);
const suffix = process.env.BENCH_DB_SUFFIX ?? COMMUNITY_SUFFIX;
if (!Number.isInteger(people) || people < 100 || !/^_[a-z0-9_]+$/.test(suffix)) {
  process.stderr.write('usage: [BENCH_PEOPLE=<at least 100>] [BENCH_DB_SUFFIX=_<a-z0-9_>] tsx infra/bench/load.ts\n');
  process.exit(64); // EX_USAGE
}
const scale = communityScale(people);
const databases = benchDatabases(suffix);
const log = (message: string) => process.stdout.write(`[bench-load ${new Date().toISOString().slice(11, 19)}] ${message}\n`);

log(`${people} people, ${scale.sessions} sessions over ${scale.days} days, into hoptrack_*${suffix}`);
const started = performance.now();
await freshBenchDatabases(databases);
// No stack uses these databases while they load: their keys and indexes are built after the rows.
const info = await seed(scale, databases, { deferIndexes: true });
const seconds = (performance.now() - started) / 1000;
const sizes = await databaseSizes(databases);
const total = Object.values(sizes).reduce((a, b) => a + b, 0);
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
log(
  `loaded and checked in ${seconds.toFixed(0)} s (the seed ${info.seconds.toFixed(0)} s): ${info.friendships} friend pairs ` +
    `(median reader ${info.readerFriends} friends, person 1 ${info.celebrityFriends}), ${scale.sessions} sessions, ${info.blocks} blocks, ${info.mutes} mutes`,
);
log(`on disk ${mb(total)}: ${Object.entries(sizes).map(([db, size]) => `${db} ${mb(size)}`).join(', ')}`);
