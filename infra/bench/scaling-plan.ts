import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Comparison } from './lib/report';
import type { BenchResults } from './lib/write';

/**
 * docs/scaling.md from one full run of `make bench BENCH_SCALE=community`
 * (issue 41, item 6): every cost is a named row of the run, every activity
 * figure an assumption marked (A), and every line shows the sum it makes, so
 * a reader can redo it and a new run redoes the whole plan.
 *
 *   npx tsx infra/bench/scaling-plan.ts bench/results/<run>.json > docs/scaling.md
 *
 * The on-disk sizes come from `make bench-load`'s last line (not in the run's
 * JSON): pass them as BENCH_LOAD_MB="auth=54,social-graph=3839,…" when they change.
 */
const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: scaling-plan.ts bench/results/<run>.json > docs/scaling.md\n');
  process.exit(2);
}
const run = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;

function row(section: string, prefix: string): Comparison {
  const found = run.sections.find((s) => s.id === section)?.comparisons.find((c) => c.measure.startsWith(prefix));
  if (!found) throw new Error(`the run has no row '${prefix}…' in its ${section} section`);
  return found;
}
const value = (section: string, prefix: string) => row(section, prefix).value;

/** CPU-ms per request of each process, from a section's per-process lines at one measured load. */
function costsAt(section: string, atPrefix: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of run.sections.find((s) => s.id === section)?.costs ?? []) if (c.at.startsWith(atPrefix)) out.set(c.process, c.cpuMsPerRequest ?? 0);
  return out;
}

const whole = (n: number) => Math.round(n).toLocaleString('en-GB');
const fixed = (n: number, digits: number) => n.toLocaleString('en-GB', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const small = (n: number) => (n < 10 ? n.toPrecision(3) : fixed(n, 1));

// --- The run's rows
const feed = value('cost', 'Feed page, whole-stack');
const gateway = value('cost', 'Gateway CPU-ms');
const rebuild = value('cost', 'Timeline rebuild');
const create = value('cost', 'Create, whole-stack');
const commits = value('cost', 'Postgres commits');
const idle = value('cost', 'Idle stack');
const timelineBytes = value('cost', 'Timeline bytes per person');
const perInsert = value('fanout', 'Fan-out CPU-ms per timeline insert');
const erasure = value('erasure', 'Erasure CPU-s per person with 10 M');
const thumbnail = value('thumbnails', 'media-worker CPU per image');
const feedShare = value('cost', 'Feed capacity');
const createShare = value('cost', 'Create capacity');
const LOAD_GENERATOR = 'load generator (bench)';
const rss = run.peakRss.filter((p) => p.process !== LOAD_GENERATOR && p.peakRssMb !== null) as Array<{ process: string; peakRssMb: number }>;

type Split = { node: number; postgres: number; redis: number; nats: number };
const ENGINES = ['postgres', 'redis', 'nats'] as const;
function split(costs: Map<string, number>): Split {
  let node = 0;
  for (const [p, ms] of costs) if (p !== LOAD_GENERATOR && !(ENGINES as readonly string[]).includes(p)) node += ms;
  return { node, postgres: costs.get('postgres') ?? 0, redis: costs.get('redis') ?? 0, nats: costs.get('nats') ?? 0 };
}
const scaled = (s: Split, k: number): Split => ({ node: s.node * k, postgres: s.postgres * k, redis: s.redis * k, nats: s.nats * k });
const total = (s: Split) => s.node + s.postgres + s.redis + s.nats;
const feedSplit = split(costsAt('cost', 'feed page at'));
// The create's per-process lines hold the idle share over its window; scaled to the row, which takes it off.
const createRaw = split(costsAt('cost', 'create at'));
const createSplit = scaled(createRaw, create / total(createRaw));

// --- The data set, as `make bench-load` measured it on disk (docs/benchmarks.md, 'A community-sized data set').
const LOADED_PEOPLE = run.seed.scale.users;
const DB_MB = Object.fromEntries(
  (process.env.BENCH_LOAD_MB ?? 'auth=54,social-graph=3839,sessions=5328,media=2097,messaging=2100,places=2084,notifications=2102').split(',').map((kv) => {
    const [k, v] = kv.split('=');
    return [k ?? '', Number(v)];
  }),
) as Record<string, number>;
const dbTotal = Object.values(DB_MB).reduce((a, b) => a + b, 0);
const graphCopies = ['media', 'messaging', 'places', 'notifications'].reduce((a, d) => a + (DB_MB[d] ?? 0), 0);

// --- Activity (A), and the community set's own figures
const PEOPLE = [10_000, 100_000, 1_000_000];
const DAILY = 0.3;
const ACTIVE30 = 0.5;
const SESSIONS_YEAR = Math.round(run.seed.scale.sessions / run.seed.scale.users);
const FRIENDS = Math.round(((2 * run.seed.friendships) / run.seed.scale.users) * 10) / 10;
const PAGES = 20;
const READS = 30;
const MESSAGES = 5;
const INTERACTIONS = 5.5;
const PHOTOS = Math.round((run.seed.photos / run.seed.scale.sessions) * 100) / 100;
const PEAK = 5;
const UTIL = 0.6;
const RETURNING = 0.02;
const DELETIONS = 0.001;
const COPIES = [2, 2, 3];
const insertsPerSession = 1 + FRIENDS * ACTIVE30;

interface Rates { F: number; O: number; C: number; I: number; M: number; P: number; T: number; R: number; E: number }
function ratesFor(n: number): Rates {
  const active = n * DAILY;
  const perSecond = PEAK / 86_400;
  const C = ((n * SESSIONS_YEAR) / 365) * perSecond;
  return {
    F: active * PAGES * perSecond,
    O: active * READS * perSecond,
    C,
    I: C * INTERACTIONS,
    M: active * MESSAGES * perSecond,
    P: C * PHOTOS,
    T: C * insertsPerSession,
    R: n * ACTIVE30 * RETURNING * perSecond,
    E: ((n * DELETIONS) / 30) * perSecond,
  };
}
const rates = PEOPLE.map(ratesFor);

/** ms of CPU a second by line, whole stack, and split into Node processes and each engine by the measured shares. */
function cpuLines(r: Rates): Array<[string, string, number, Split]> {
  const reads = r.F + r.O;
  const writes = r.C + r.I + 2 * r.M;
  const nodeOnly = (ms: number): Split => ({ node: ms, postgres: 0, redis: 0, nats: 0 });
  const rebuildMs = r.R * rebuild;
  return [
    ['Feed pages and other reads', `(F + O) × ${feed}`, reads * feed, scaled(feedSplit, reads)],
    ['Creates, interactions, messages and read receipts', `(C + I + 2M) × ${create}`, writes * create, scaled(createSplit, writes)],
    // A rebuild is mostly Postgres's reading of the authors' sessions and sessions' merge: split as a page.
    ['Rebuilds (returning people)', `R × ${rebuild}`, rebuildMs, scaled(feedSplit, rebuildMs / feed)],
    ['Thumbnails (media-worker)', `P × ${whole(thumbnail)}`, r.P * thumbnail, nodeOnly(r.P * thumbnail)],
    ['Erasures', `E × ${erasure} s`, r.E * erasure * 1000, nodeOnly(r.E * erasure * 1000)],
  ];
}
const lines = rates.map(cpuLines);
const totals = lines.map((l) => l.reduce((a, [, , ms]) => a + ms, 0));
const byPart = lines.map((l) => l.reduce<Split>((a, [, , , s]) => ({ node: a.node + s.node, postgres: a.postgres + s.postgres, redis: a.redis + s.redis, nats: a.nats + s.nats }), { node: 0, postgres: 0, redis: 0, nats: 0 }));
const at = (ms: number) => ms / 1000 / UTIL;

const timelinesGB = PEOPLE.map((n) => (n * ACTIVE30 * timelineBytes) / 1e9);
const postgresGB = PEOPLE.map((n) => ((dbTotal * n) / LOADED_PEOPLE) / 1000);
const sessionsGB = PEOPLE.map((n) => (((DB_MB.sessions ?? 0) * n) / LOADED_PEOPLE) / 1000);
const rssTotal = rss.reduce((a, p) => a + p.peakRssMb, 0);
const size = (gb: number) => (gb < 1 ? `${Math.round(gb * 1000)} MB` : `${fixed(gb, 2)} GB`);

// How far to trust the run: its reference checks against this machine kind's earlier runs.
const checks = run.sections.flatMap((s) => s.comparisons).flatMap((c) => (c.referenceCheck && c.referenceCheck.valid !== null ? [c.referenceCheck] : []));
const invalid = checks.filter((c) => c.valid === false);
const worst = invalid.reduce((w, c) => Math.max(w, Math.abs(c.offBy ?? 0)), 0);

const out: string[] = [];
const w = (s = '') => out.push(s);
const cells = (values: string[]) => values.join(' | ');
w('# Scaling: a capacity plan from measured costs');
w();
// Dated when written (after the run it reads, whose start is named beside it), so the plan says how old it is.
const ranFinishedAt = new Date(new Date(run.startedAt).getTime() + run.durationSeconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
w(
  `Dated ${new Date().toISOString().slice(0, 10)}, written by \`infra/bench/scaling-plan.ts\` from one run of \`make bench BENCH_SCALE=community\` (started ${run.startedAt.slice(0, 16).replace('T', ' ')} UTC, finished ${ranFinishedAt} UTC)`,
);
w(`(\`bench/results/${path.basename(file)}\`, the Results table of docs/benchmarks.md): ${run.machine.cpu}, ${run.machine.cores} cores, ${run.machine.memoryGiB} GiB,`);
w(`on the community data set (${run.seed.scale.users.toLocaleString('en-GB')} people, ${run.seed.friendships.toLocaleString('en-GB')} friendships, ${run.seed.scale.sessions.toLocaleString('en-GB')} sessions over a year; the median person`);
w('about 100 friends). Every cost below is a row of that run, named by its first words, or arithmetic on rows and on the assumptions');
w('marked **(A)**; each line shows its sum, so a reader can redo it. On these shared VMs an AMD machine costs about twice the CPU per');
w('request of the Intel ones (docs/benchmarks.md, "Reading this run"), so a plan from an AMD run errs high.');
w();
w(
  `**How far to trust them.** ${invalid.length} of the run's ${checks.length} reference checks were more than ±15 % off this machine kind's median of its` +
    ` earlier runs (the worst by ${Math.round(worst * 100)} %)${invalid.length > 0 ? ': those rows are marked invalid in the Results table, and a machine off its median raises the cost rows as well (CPU per request), so where it was slow the plan errs high' : ''}.` +
    ` The cost rows were measured at half of the capacity the run found, where the idle stack's ${idle} cores are part of every request's cost.`,
);
w();
w('## What was measured');
w();
w('| Figure | Value | Row (docs/benchmarks.md, Results) |');
w('| --- | --- | --- |');
w(`| A feed page, every process and engine | ${feed} CPU-ms: Node processes ${fixed(feedSplit.node, 2)}, Postgres ${fixed(feedSplit.postgres, 2)}, Redis ${fixed(feedSplit.redis, 2)}, NATS ${fixed(feedSplit.nats, 2)} | "Feed page, whole-stack CPU-ms" and its CPU-per-process lines |`);
w(`| of which the gateway | ${gateway} CPU-ms | "Gateway CPU-ms per request" |`);
w(`| A first page that rebuilds a timeline | ${rebuild} CPU-ms | "Timeline rebuild" |`);
w(`| A create by a median author, until the stack is quiet (relay, every consumer, fan-out) | ${create} CPU-ms: Node ${fixed(createSplit.node, 1)}, Postgres ${fixed(createSplit.postgres, 1)}, Redis ${fixed(createSplit.redis, 1)}, NATS ${fixed(createSplit.nats, 1)} (the per-process lines scaled to the row, which takes the idle share off) | "Create, whole-stack CPU-ms" |`);
w(`| Postgres commits per create | ${commits} | "Postgres commits per create" |`);
w(`| A timeline insert, at drain | ${perInsert} CPU-ms | "Fan-out CPU-ms per timeline insert" |`);
w(`| A thumbnail and display image | ${whole(thumbnail)} CPU-ms in media-worker | "media-worker CPU per image" |`);
w(`| An erasure, with 10 M events stored | ${erasure} CPU-s | "Erasure CPU-s per person" |`);
w(`| The idle stack, one copy of every process and engine | ${idle} cores | "Idle stack CPU" |`);
w(`| A 30-day-active person's timeline in Redis | ${timelineBytes.toLocaleString('en-GB')} B; 0 for someone who did not read | "Timeline bytes per person", "Timeline bytes in Redis of" |`);
w(`| Capacity against the CPU ceiling | feed ${feedShare}, create ${createShare} | "Feed capacity ÷ CPU ceiling", "Create capacity ÷ CPU ceiling" |`);
w(`| Postgres on disk for ${LOADED_PEOPLE.toLocaleString('en-GB')} people and a year | ${dbTotal.toLocaleString('en-GB')} MB: ${Object.entries(DB_MB).map(([d, mb]) => `${d} ${mb.toLocaleString('en-GB')}`).join(', ')} | \`make bench-load\` (docs/benchmarks.md, "A community-sized data set") |`);
w(`| Peak RSS per process over the run, MB | ${rss.map((p) => `${p.process} ${Math.round(p.peakRssMb)}`).join(', ')} | "Peak resident memory" |`);
w();
w('Not measured, and priced as stated: every other read (profiles, friends, search, bars, conversations, `/api/me`) is priced as a');
w('feed page, the most expensive read measured; every other write (like, comment, reaction, message, read receipt) as a create,');
w('which runs four consumers and a fan-out where a like runs one consumer. Both err high.');
w();
w('## Assumptions');
w();
w('| Figure | Value |');
w('| --- | --- |');
w(`| Active on a day | ${DAILY * 100} % of people **(A)** |`);
w(`| Active in the last 30 days (a timeline kept) | ${ACTIVE30 * 100} % of people **(A)** |`);
w(`| Sessions logged | ${SESSIONS_YEAR} a person a year (the community set) |`);
w(`| Friends | ${FRIENDS} on average (the community set: 2 × ${run.seed.friendships.toLocaleString('en-GB')} pairs ÷ ${run.seed.scale.users.toLocaleString('en-GB')}), median 100 |`);
w(`| Timeline inserts per session | 1 + ${FRIENDS} × ${ACTIVE30} = ${fixed(insertsPerSession, 1)} (the author, and friends whose timeline exists) |`);
w(`| Feed pages | ${PAGES} a day per active person **(A)** |`);
w(`| Other reads | ${READS} a day per active person **(A)** |`);
w(`| Messages | ${MESSAGES} sent a day per active person, each read once **(A)** |`);
w(`| Likes, comments, reactions | ${INTERACTIONS} a session (the community set: 3 + 1 + 1.5) |`);
w(`| Photos | ${PHOTOS} a session (the community set) |`);
w(`| Returning after more than 30 days | ${RETURNING * 100} % of the 30-day-active people a day, each one rebuild **(A)** |`);
w(`| Erasures | ${DELETIONS * 100} % of people a month **(A)** |`);
w(`| Peak ÷ average | ${PEAK}: Friday and Saturday evenings **(A)** |`);
w(`| Target utilisation | ${UTIL} of a core |`);
w();
w('## Peak rates');
w();
w(`Per second at the peak = per day × ${PEAK} ÷ 86,400.`);
w();
w('| Rate | Formula | 10k | 100k | 1M |');
w('| --- | --- | --- | --- | --- |');
const rateRows: Array<[keyof Rates, string, string]> = [
  ['F', 'Feed pages/s, F', `people × ${DAILY} × ${PAGES}`],
  ['O', 'Other reads/s, O', `people × ${DAILY} × ${READS}`],
  ['C', 'Session creates/s, C', `people × ${SESSIONS_YEAR} ÷ 365`],
  ['I', 'Likes, comments, reactions/s, I', `C × ${INTERACTIONS}`],
  ['M', 'Messages/s, M (as many read receipts)', `people × ${DAILY} × ${MESSAGES}`],
  ['P', 'Photos/s, P', `C × ${PHOTOS}`],
  ['T', 'Timeline inserts/s', `C × ${fixed(insertsPerSession, 1)}`],
  ['R', 'Rebuilds/s, R', `people × ${ACTIVE30} × ${RETURNING}`],
  ['E', 'Erasures/s, E', `people × ${DELETIONS} ÷ 30`],
];
for (const [key, name, formula] of rateRows) w(`| ${name} | ${formula} | ${cells(rates.map((r) => small(r[key])))} |`);
w();
w('## CPU, whole stack');
w();
w(`Each line is rate × measured cost (ms of CPU a second); cores at the target = ms/s ÷ 1,000 ÷ ${UTIL}. The split into Node`);
w('processes, Postgres, Redis and NATS uses the measured shares of a page and of a create.');
w();
w('| Line | Cost | 10k | 100k | 1M |');
w('| --- | --- | --- | --- | --- |');
for (let i = 0; i < (lines[0]?.length ?? 0); i++) {
  const [name, formula] = lines[0]?.[i] ?? ['', ''];
  w(`| ${name} | ${formula} | ${cells(lines.map((l) => whole(l[i]?.[2] ?? 0)))} |`);
}
w(`| **All, ms/s** | | ${cells(totals.map((t) => `**${whole(t)}**`))} |`);
w(`| Cores busy / at ${UTIL} | | ${cells(totals.map((t) => `${fixed(t / 1000, 2)} / ${fixed(at(t), 2)}`))} |`);
w(`| of which Node processes, cores at ${UTIL} | | ${cells(byPart.map((b) => fixed(at(b.node), 2)))} |`);
w(`| Postgres, cores at ${UTIL} | | ${cells(byPart.map((b) => fixed(at(b.postgres), 2)))} |`);
w(`| Redis, cores at ${UTIL} (the bench ran one Redis for all; a Redis runs commands on one thread) | | ${cells(byPart.map((b) => fixed(at(b.redis), 2)))} |`);
w(`| NATS, cores at ${UTIL} | | ${cells(byPart.map((b) => fixed(at(b.nats), 2)))} |`);
w();
w(`On top, the idle cost of being there: ${idle} cores a copy of the whole stack, so about ${idle} × the replica count`);
w(`(compose runs 2 of each, the production overlay at least 3): ${cells(COPIES.map((c) => fixed(idle * c, 2))).replace(/ \| /g, ', ')} cores. CPU is not what runs out first:`);
w(`at 1M people the peak takes ${Math.round(at(totals[2] ?? 0))} cores at ${UTIL} with every unmeasured request priced high, spread over replicas`);
w('that the HPA adds (copies are ready in about a second: docs/benchmarks.md, "Process footprint").');
w();
w('## Memory and storage');
w();
w('| Store | Formula | 10k | 100k | 1M |');
w('| --- | --- | --- | --- | --- |');
w(`| Timelines (their own Redis) | people × ${ACTIVE30} × ${timelineBytes.toLocaleString('en-GB')} B | ${cells(timelinesGB.map(size))} |`);
w(`| Postgres, a year of history | ${dbTotal.toLocaleString('en-GB')} MB × people ÷ ${LOADED_PEOPLE.toLocaleString('en-GB')} | ${cells(postgresGB.map((g) => `${fixed(g, 1)} GB`))} |`);
w(`| of which sessions | ${(DB_MB.sessions ?? 0).toLocaleString('en-GB')} MB × people ÷ ${LOADED_PEOPLE.toLocaleString('en-GB')} | ${cells(sessionsGB.map((g) => `${fixed(g, 1)} GB`))} |`);
w(`| Node processes, ${COPIES.join(' / ')} copies at peak RSS | copies × ${whole(rssTotal)} MB | ${cells(COPIES.map((c) => `${fixed((c * rssTotal) / 1000, 1)} GB`))} |`);
w();
w('- **Timelines** hold 120 entries in one listpack (docs/decisions.md, "Issue 41 item 5, timelines"); fan-out writes only timelines that exist and a');
w('  feed read keeps one alive for 30 days, so the store follows the 30-day-active people, not everyone. compose and Kubernetes give them a Redis');
w(`  of their own with \`maxmemory 512mb\` and \`allkeys-lru\`: that holds 512 MB ÷ ${timelineBytes.toLocaleString('en-GB')} B = ${whole(512e6 / timelineBytes)} people's timelines.`);
w("- **Postgres** grows with the history: every year of the community's habits adds the row above. Four of the seven databases (media, messaging,");
w('  places, notifications) are mostly their copies of the graph (follows both ways, blocks, mutes), which each service keeps to enforce privacy');
w("  itself; social-graph's friendships are the same pairs, and sessions keeps a copy beside the sessions and their likes, comments and reactions.");
w('- **NATS** keeps 7 days of events (`STREAM_MAX_AGE_MS`); bytes per event are not measured by the bench.');
w();
w('## Connections');
w();
w("- **compose**: ten processes hold a database; at four copies each they hold 10 × 4 × (pool 5 + the pruner's 1) = 240 of the 297 Postgres lets");
w('  in (`max_connections=300`; `infra/ops/compose.test.ts` checks the sum).');
w("- **Kubernetes**: every pool goes through PgBouncer (transaction pooling). At the production overlay's maxima, 695 clients against");
w('  `max_client_conn` 1,000 and 302 server connections against 397 (docs/decisions.md, "connection budget in Kubernetes";');
w('  `infra/ops/kubernetes.test.ts` redoes it from the rendered objects).');
w('- **Live streams** have their own uncapped agent in the gateway (docs/decisions.md, "live streams off the gateway\'s API sockets"): a tab');
w(`  costs the gateway two file descriptors. At 1M, ${whole((1e6 * DAILY * 15 * PEAK) / 1440)} tabs open at the peak (15 minutes a day per active person **(A)**).`);
w();
w('## What runs out first, and the change that moves it');
w();
w('| People | What runs out first | Arithmetic | Change |');
w('| --- | --- | --- | --- |');
const [t10, t100, t1m] = totals as [number, number, number];
const [p1m] = [byPart[2] as Split];
w(`| 10k | Nothing: compose's 2 copies of everything carry ${fixed(at(t10), 2)} cores of peak on one machine | ${whole(t10)} ms/s; timelines ${size(timelinesGB[0] ?? 0)} of 512 MB; Postgres ${fixed(postgresGB[0] ?? 0, 1)} GB a year | None. Availability, not load, sets the copies. |`);
w(`| 100k | Postgres memory before CPU: the shared buffers (128 MB by default) against ${whole(postgresGB[1] ?? 0)} GB a year, so a rebuild reads from the page cache or disk (the 5,000 first reads of the bench) | rebuild ${rebuild} CPU-ms against ${feed} for a warm page; ${fixed(at(t100), 2)} cores in all | \`shared_buffers\` a quarter of the machine's memory, and a Postgres machine with the sessions database's working set in memory (${fixed(sessionsGB[1] ?? 0, 1)} GB a year). |`);
w(`| 1M | The timelines' Redis: ${size(timelinesGB[2] ?? 0)} of 30-day-active timelines against \`maxmemory 512mb\`, so LRU evicts active people's timelines and each eviction becomes a rebuild | ${whole(1e6 * ACTIVE30)} × ${timelineBytes.toLocaleString('en-GB')} B; a rebuild costs ${Math.round(rebuild / feed)}× a warm page | \`maxmemory\` to ${Math.ceil((timelinesGB[2] ?? 0) * 1.5)} GB (half again for headroom) on a machine of its own; past that, Redis Cluster keyed by person (a timeline is one key). |`);
w(`| 1M | Postgres storage and the graph copies: ${whole(postgresGB[2] ?? 0)} GB a year, ${whole((graphCopies * 10) / 1000)} GB of it copies of the graph | the rows above × 10 | Separate servers per database (sessions and social-graph first); narrow what each copy of the graph keeps. |`);
w(`| 1M | Postgres CPU on one primary: ${fixed(at(p1m.postgres), 1)} cores at ${UTIL} | the Postgres line above | A primary of 8 cores or more; the feed's one statement a page (\`viewerBits\`) can read from a replica, the visibility reads stay on the primary (docs/reliability.md). |`);
w(`| 1M | Redis (the main one) CPU: ${fixed(at(p1m.redis), 2)} cores at ${UTIL}, one thread | the Redis line above | Cards and the people cache to a Redis of their own, as the timelines went. |`);
w();
w('## The goals of issue 41 on this run');
w();
w('| Row | Measured | Goal | |');
w('| --- | --- | --- | --- |');
const goals: Array<[string, number, number, '≤' | '≥']> = [
  ['Feed page, whole-stack CPU-ms', feed, 2.0, '≤'],
  ['Gateway CPU-ms per request', gateway, 0.4, '≤'],
  ['Create, whole-stack CPU-ms', create, 6, '≤'],
  ['Postgres commits per create', commits, 3, '≤'],
  ['Fan-out CPU-ms per timeline insert', perInsert, 0.02, '≤'],
  ['Feed capacity ÷ CPU ceiling', feedShare, 0.7, '≥'],
  ['Create capacity ÷ CPU ceiling', createShare, 0.7, '≥'],
  ['Timeline bytes per person', timelineBytes, 16_384, '≤'],
  ['Erasure CPU-s per person', erasure, 1, '≤'],
  ['Idle stack CPU, cores', idle, 0.05, '≤'],
];
for (const [name, measured, goal, op] of goals) {
  const met = op === '≤' ? measured <= goal : measured >= goal;
  const verdict = met ? 'met' : op === '≤' ? `missed: ${fixed(measured / goal, 1)}× the goal` : `missed: ${fixed(measured / goal, 2)} of it`;
  w(`| ${name} | ${measured} | ${op} ${goal} | ${verdict} |`);
}
w();
w('Why the misses stand, with the profiles: docs/benchmarks.md, "Reading this run".');
process.stdout.write(`${out.join('\n')}\n`);
