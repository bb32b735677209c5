import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { uuidFromBytes } from '@hoptrack/runtime';

/**
 * Helpers of the fault tests: a gate a worker waits at (so a kill lands at a
 * known point inside its work), and the ok / lost / duplicated tally every
 * fault figure is made of.
 */

export interface FaultGate {
  /** The file the worker waits for (`FANOUT_FAULT_GATE_FILE`). */
  path: string;
  /** Lets waiting and later work through. */
  open(): void;
  /** Makes the next work stop at the gate again. */
  close(): void;
  remove(): void;
}

/** A gate file in a fresh temporary directory; closed (absent) until `open()`. */
export function faultGate(): FaultGate {
  const dir = mkdtempSync(path.join(tmpdir(), 'hoptrack-gate-'));
  const file = path.join(dir, 'open');
  return {
    path: file,
    open: () => writeFileSync(file, ''),
    close: () => rmSync(file, { force: true }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface Tally {
  /** Expected items seen exactly once. */
  ok: number;
  /** Expected items not seen. */
  lost: number;
  /** Expected items seen more than once... */
  duplicated: number;
  /** ...and how many copies beyond the first they had in all. */
  extraCopies: number;
  /** Items seen that were not expected at all. */
  unexpected: number;
}

/** Counts `seen` (with its repeats) against `expected`: the figure of a fault test. */
export function tally(expected: Iterable<string>, seen: Iterable<string>): Tally {
  const counts = new Map<string, number>();
  for (const item of seen) counts.set(item, (counts.get(item) ?? 0) + 1);
  const wanted = new Set(expected);
  const result: Tally = { ok: 0, lost: 0, duplicated: 0, extraCopies: 0, unexpected: 0 };
  for (const item of wanted) {
    const n = counts.get(item) ?? 0;
    if (n === 0) result.lost += 1;
    else if (n === 1) result.ok += 1;
    else {
      result.duplicated += 1;
      result.extraCopies += n - 1;
    }
  }
  for (const item of counts.keys()) if (!wanted.has(item)) result.unexpected += 1;
  return result;
}

/** Adds tallies up (one per timeline, per account, ...). */
export function sumTallies(tallies: Tally[]): Tally {
  return tallies.reduce(
    (a, b) => ({ ok: a.ok + b.ok, lost: a.lost + b.lost, duplicated: a.duplicated + b.duplicated, extraCopies: a.extraCopies + b.extraCopies, unexpected: a.unexpected + b.unexpected }),
    { ok: 0, lost: 0, duplicated: 0, extraCopies: 0, unexpected: 0 },
  );
}

/**
 * The session ids on a Redis home timeline (`<namespace>:timeline:<user>`,
 * members the session's 16 bytes then the author's), one per entry: counted
 * by session id, not by member, so a second entry for one session under
 * another member spelling (a non-idempotent write, a rebuild disagreeing with
 * the fan-out) shows up. The marks (shorter than an entry) are not entries.
 */
export async function timelineSessionIds(
  redis: { zrangeBuffer(key: string, start: number, stop: number): Promise<Buffer[]> },
  namespace: string,
  userId: string,
): Promise<string[]> {
  const members = await redis.zrangeBuffer(`${namespace}:timeline:${userId}`, 0, -1);
  return members.filter((m) => m.length === 32).map((m) => uuidFromBytes(m.subarray(0, 16)));
}
