import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../../testing/processes';
import type { SeedInfo } from '../seed';
import { describeMachine, type MachineInfo } from './machine';
import type { conditionsSummary } from './conditions';
import type { Comparison, Section } from './report';
import { checkReferences, referenceVerdict } from './validity';

export interface BenchResults {
  smoke: boolean;
  /** ISO time the run started. */
  startedAt: string;
  /** Set when only some benchmarks ran (--only): the JSON is kept, the docs table is left alone. */
  only?: string[];
  label?: string;
  machine: MachineInfo;
  seed: SeedInfo;
  durationSeconds: number;
  /** The stack's LOG_LEVEL (production's, info, unless BENCH_LOG_LEVEL said otherwise). */
  logLevel?: string;
  sections: Section[];
  peakRss: Array<{ process: string; peakRssMb: number | null }>;
  /** The machine over every load step (lib/conditions.ts); absent in results from before issue 41. */
  conditions?: ReturnType<typeof conditionsSummary>;
}

const START = '<!-- bench:results:start -->';
const END = '<!-- bench:results:end -->';

// Whole numbers (rates on the ladder) as they are; others to three significant figures or so.
const fmt = (n: number) =>
  Number.isInteger(n) || Math.abs(n) >= 100 ? Math.round(n).toLocaleString('en-GB') : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2);
const count = (n: number) => n.toLocaleString('en-GB');

/** "≥ 19,843 rps", "134 rps (96–188)": a floor says so, a median of several runs shows their range. */
const cell = (value: number, unit: string, atLeast: boolean | undefined, spread: { min: number; max: number } | undefined, runs: number[] | undefined) =>
  `${atLeast ? '≥ ' : ''}${fmt(value)} ${unit}${spread && runs && runs.length > 1 ? ` (${fmt(spread.min)}–${fmt(spread.max)})` : ''}`;

/** A floor on one side bounds the ratio on that side; floors on both leave it unknown. */
function ratioCell(c: Comparison): string {
  if (c.atLeast && c.referenceAtLeast) return `? (both ≥; ${c.ratio.toFixed(2)})${referenceVerdict(c.referenceCheck)}`;
  return `${c.atLeast ? '≥ ' : c.referenceAtLeast ? '≤ ' : ''}${c.ratio.toFixed(2)}${referenceVerdict(c.referenceCheck)}`;
}

/** The data set in one line. */
function describeData(seed: SeedInfo): string {
  const people = `${count(seed.scale.users)} people, ${count(seed.friendships)} friendships (person 1 has ${count(seed.celebrityFriends ?? seed.scale.celebrityFriends)} friends`;
  // Results files from before the heavy reader, photos, blocks and mutes lack them.
  if (seed.heavyReader === undefined) return `Data: ${people}; the reader has ${seed.readerFriends}), ${count(seed.scale.sessions)} sessions.`;
  return (
    `Data: ${people}; the median reader, person ${seed.reader}, has ${seed.readerFriends}; the heavy reader, person ${seed.heavyReader}, ${seed.heavyReaderFriends}), ` +
    `${count(seed.scale.sessions)} sessions (${count(seed.photos)} with a photo), ${count(seed.blocks)} blocks and ${count(seed.mutes)} mutes.`
  );
}

/** The machine over the run's load steps in one line: what says a figure came from a quiet machine or not. */
function describeConditions(c: NonNullable<BenchResults['conditions']>): string {
  const pressure = c.cpuPressureMedian === null ? 'no CPU pressure figures (kernel without PSI)' : `CPU pressure (share of time a task waited for a core) median ${Math.round(c.cpuPressureMedian * 100)} %, worst ${Math.round((c.cpuPressureMax ?? 0) * 100)} %`;
  return `Over its ${count(c.steps)} load steps: the machine kept at most ${c.machineCoresMax.toFixed(2)} cores busy; ${pressure}; the load generator used at most ${c.generatorCoresMax.toFixed(2)} cores, its event-loop delay p99 at most ${fmt(c.generatorLagP99MaxMs)} ms. A reference more than ±15 % off this machine kind's median of its last runs marks its row invalid.`;
}

/** The generated part of docs/benchmarks.md: every comparison, then costs and memory. */
export function markdown(results: BenchResults, file: string): string {
  const when = results.startedAt.slice(0, 16).replace('T', ' ');
  const lines = [
    START,
    `Run started ${when} UTC (\`${path.relative(repoRoot, file)}\`), ${Math.round(results.durationSeconds / 60)} min, on ${describeMachine(results.machine)}; load average ${results.machine.loadAtStart} at the start.`,
    describeData(results.seed),
    ...(results.conditions ? [describeConditions(results.conditions)] : []),
    ...(results.logLevel ? [`The stack logged at \`${results.logLevel}\`. A capacity is the median of its runs, their range in brackets; "≥" marks a search that never saw its target break.`] : []),
    '',
    '| # | Measure | Value | Reference (same run) | Reference value | Ratio |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  results.sections.forEach((section, i) => {
    if (section.comparisons.length === 0) lines.push(`| ${i + 1} | ${section.title}: **failed** — ${String(section.details?.error ?? 'no figures')} | | | | |`);
    for (const c of section.comparisons) {
      const value = cell(c.value, c.unit, c.atLeast, c.spread, c.runs);
      const reference = cell(c.referenceValue, c.unit, c.referenceAtLeast, c.referenceSpread, c.referenceRuns);
      lines.push(`| ${i + 1} | ${c.measure} | ${value} | ${c.reference} | ${reference} | ${ratioCell(c)} |`);
    }
  });
  const costs = results.sections.flatMap((s) => s.costs ?? []);
  if (costs.length > 0) {
    lines.push('', 'CPU per request (or per item) of each process at the measured load:', '', '| Where | Process | CPU ms / request |', '| --- | --- | --- |');
    // Processes idling through a window (relays polling) are in the JSON; the table keeps the ones doing the work.
    const top = new Map<string, number>();
    for (const c of costs) top.set(c.at, Math.max(top.get(c.at) ?? 0, c.cpuMsPerRequest ?? 0));
    for (const c of costs) {
      if (c.cpuMsPerRequest !== null && c.cpuMsPerRequest < 0.05 * (top.get(c.at) ?? 0)) continue;
      lines.push(`| ${c.at} | ${c.process} | ${c.cpuMsPerRequest === null ? '—' : c.cpuMsPerRequest.toFixed(3)} |`);
    }
  }
  lines.push('', 'Peak resident memory over the whole run:', '', '| Process | Peak RSS |', '| --- | --- |');
  for (const p of results.peakRss) lines.push(`| ${p.process} | ${p.peakRssMb === null ? '—' : `${Math.round(p.peakRssMb)} MB`} |`);
  lines.push(END);
  return lines.join('\n');
}

/** Re-renders the docs table from a results file (after a change to the rendering): `npx tsx infra/bench/lib/write.ts <file>`. */
export async function renderDocs(file: string): Promise<void> {
  const results = JSON.parse(await readFile(file, 'utf8')) as BenchResults;
  await replaceTable(markdown(results, file));
}

async function replaceTable(table: string): Promise<void> {
  const docs = path.join(repoRoot, 'docs/benchmarks.md');
  const text = await readFile(docs, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  await writeFile(docs, start >= 0 && end > start ? text.slice(0, start) + table + text.slice(end + END.length) : `${text.trimEnd()}\n\n${table}\n`);
}

/**
 * Writes bench/results/<date>[-label].json and replaces the generated table
 * in docs/benchmarks.md. A smoke run writes its JSON to a temp folder and
 * leaves the docs alone: its figures mean nothing. A partial run (--only)
 * writes its JSON only.
 */
export async function writeResults(results: BenchResults): Promise<string> {
  const dir = results.smoke ? path.join(tmpdir(), 'hoptrack-bench') : path.join(repoRoot, 'bench/results');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${new Date().toISOString().slice(0, 10)}${results.label ? `-${results.label}` : ''}.json`);
  // The committed runs are the history a reference is judged by (a smoke's judgement is kept in its JSON, and means little).
  await checkReferences(path.join(repoRoot, 'bench/results'), results);
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
  if (!results.smoke && !results.only) await replaceTable(markdown(results, file));
  return file;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv[2]) await renderDocs(path.resolve(process.argv[2]));
