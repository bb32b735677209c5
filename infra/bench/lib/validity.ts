import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { MachineInfo } from './machine';
import type { Comparison, Section } from './report';

/**
 * Whether a run's machine behaved like its kind (issue 41, "measurement you
 * can trust on a shared VM"): each reference — the bare tool measured beside
 * a figure in the same run — is compared with the median of that reference
 * over the last runs on the same kind of machine (same CPU model and core
 * count). A reference more than ±15 % off says the machine was not itself
 * that day (a noisy neighbour, a throttled host), and the figure beside it is
 * marked invalid rather than believed. The first runs on a kind have no
 * median and are marked as such, not as valid.
 */
export const REFERENCE_TOLERANCE = 0.15;
/** Earlier runs the median is taken over (the newest ones). */
export const ROLLING_RUNS = 5;

export interface ReferenceCheck {
  /** The median of this reference over `runs` earlier runs on this kind of machine. */
  median: number | null;
  runs: number;
  /** referenceValue ÷ median − 1. */
  offBy: number | null;
  valid: boolean | null;
}

interface StoredRun {
  smoke?: boolean;
  startedAt: string;
  machine: Pick<MachineInfo, 'cpu' | 'cores'>;
  sections: Array<{ id: string; comparisons: Array<Pick<Comparison, 'measure' | 'reference' | 'referenceValue' | 'referenceIsGoal'>> }>;
}

const kindOf = (m: Pick<MachineInfo, 'cpu' | 'cores'>) => `${m.cores} × ${m.cpu}`;
const keyOf = (sectionId: string, c: Pick<Comparison, 'measure' | 'reference'>) => `${sectionId}\u0000${c.measure}\u0000${c.reference}`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Every earlier reference value on this kind of machine, newest last, by section and measure. */
export function referenceHistory(runs: StoredRun[], machine: Pick<MachineInfo, 'cpu' | 'cores'>, before: string): Map<string, number[]> {
  const history = new Map<string, number[]>();
  const kind = kindOf(machine);
  const earlier = runs.filter((r) => !r.smoke && kindOf(r.machine) === kind && r.startedAt < before).sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  for (const run of earlier) {
    for (const section of run.sections) {
      for (const c of section.comparisons) {
        if (!(c.referenceValue > 0) || c.referenceIsGoal) continue;
        const key = keyOf(section.id, c);
        history.set(key, [...(history.get(key) ?? []), c.referenceValue]);
      }
    }
  }
  return history;
}

/** The check of one reference against its history. */
export function checkReference(value: number, history: number[] | undefined): ReferenceCheck {
  const recent = (history ?? []).slice(-ROLLING_RUNS);
  if (recent.length === 0 || !(value > 0)) return { median: null, runs: recent.length, offBy: null, valid: null };
  const m = median(recent);
  const offBy = m > 0 ? value / m - 1 : null;
  return { median: m, runs: recent.length, offBy, valid: offBy === null ? null : Math.abs(offBy) <= REFERENCE_TOLERANCE };
}

/** Marks every comparison of a run with its reference check (the committed results in `dir` are the history). */
export async function checkReferences(dir: string, results: { startedAt: string; machine: MachineInfo; sections: Section[] }): Promise<void> {
  const runs: StoredRun[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.endsWith('.json')) continue;
    try {
      runs.push(JSON.parse(await readFile(path.join(dir, name), 'utf8')) as StoredRun);
    } catch {
      // a file being written or not a results file: no history from it
    }
  }
  const history = referenceHistory(runs, results.machine, results.startedAt);
  for (const section of results.sections) {
    for (const c of section.comparisons) if (!c.referenceIsGoal) c.referenceCheck = checkReference(c.referenceValue, history.get(keyOf(section.id, c)));
  }
}

/** The table's word on a comparison's reference. */
export function referenceVerdict(check: ReferenceCheck | undefined): string {
  if (!check || check.valid === null) return check && check.runs === 0 ? ' (no earlier run on this machine kind)' : '';
  const pct = `${check.offBy !== null && check.offBy >= 0 ? '+' : ''}${Math.round((check.offBy ?? 0) * 100)} %`;
  return check.valid ? ` (reference ${pct} of this machine kind's median)` : ` — **invalid**: reference ${pct} off this machine kind's median of ${check.runs} runs`;
}
