import type { Logger, SqlClient } from '@hoptrack/runtime';
import { Counter, type Registry } from 'prom-client';
import { deleteExpiredExports } from '../../exports/expiry';
import type { ObjectStore } from '../../storage/object-store';
import { candidateOf, namedAmong, SWEPT_KINDS, type Candidate } from './owners';
import type { SessionPhotoNames } from './session-photos';

/** Objects judged per round trip: one query per kind of row, one DeleteObjects call. */
const DEFAULT_BATCH = 500;
const SWEPT_METRIC = 'media_orphans_swept_total';
const PASSES_METRIC = 'media_orphan_sweeps_total';

export interface OrphanSweeperOptions {
  store: ObjectStore;
  db: SqlClient;
  logger: Logger;
  registry: Registry;
  clock: () => Date;
  /** Objects younger than this are never judged (ORPHAN_GRACE_MS). */
  graceMs: number;
  /** Candidates per check and delete (tests make it small). */
  batch?: number;
  /** Who names session photos (`uploads/`); without it they are not judged. */
  sessionPhotos?: SessionPhotoNames;
}

/** What one pass did. */
export interface SweepReport {
  /** Objects listed under the swept folders. */
  listed: number;
  /** Of them, younger than the grace: left alone, whatever names them. */
  young: number;
  /** Old enough and no row names them: deleted... */
  swept: number;
  /** ...or meant to be, but the store kept them (the next pass tries again). */
  left: number;
  /** Export zips past their time (their lifetime, or replaced by a newer one), deleted by their rows before the listing. */
  expired: number;
}

/**
 * The orphan sweep (issue 38): deletes the objects no row names. They come
 * from uploads whose store failed half-way (addPhotos removes what it stored,
 * unless the store is gone by then), from deletions whose object removal
 * failed (the row goes first), from a commit that failed after its put, and
 * from profile pictures replaced or never recorded. Uploads put their objects
 * before the row that names them commits, so an object younger than the grace
 * may be an upload in flight: only older ones are judged. The bucket is
 * listed folder by folder, a page at a time, and each batch is checked with
 * one query per kind of row and deleted with one call: the cost follows the
 * objects listed. Two worker replicas sweeping at once only repeat work.
 * Each pass starts with the export zips past their time (exports/expiry.ts):
 * named by rows, but no longer wanted.
 */
export class OrphanSweeper {
  private readonly swept: Counter<'folder'>;
  private readonly passes: Counter<'outcome'>;
  private readonly batch: number;
  private running: Promise<SweepReport> | undefined;

  constructor(private readonly options: OrphanSweeperOptions) {
    this.batch = options.batch ?? DEFAULT_BATCH;
    const counter = <L extends string>(name: string, help: string, label: L): Counter<L> =>
      (options.registry.getSingleMetric(name) as Counter<L> | undefined) ?? new Counter({ name, help, labelNames: [label], registers: [options.registry] });
    this.swept = counter(SWEPT_METRIC, 'Objects deleted from the bucket because no row named them past the grace period, by folder (originals, thumbs, display, avatars, exports, uploads)', 'folder');
    // Passes that failed (the store or the database down) are what an alert on a stalled sweep watches.
    this.passes = counter(PASSES_METRIC, 'Passes of the orphan sweep, by outcome (ok, failed)', 'outcome');
  }

  /** One pass now; a pass already running is joined, not doubled. */
  sweepOnce(): Promise<SweepReport> {
    this.running ??= this.pass()
      .then(
        (report) => {
          this.passes.inc({ outcome: 'ok' });
          return report;
        },
        (err: unknown) => {
          this.passes.inc({ outcome: 'failed' });
          throw err;
        },
      )
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /** Passes every `intervalMs`, each after the last one ended; a failed pass (the store down) is logged and the next one tries again. */
  start(intervalMs: number): { name: string; close(): Promise<void> } {
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const schedule = () => {
      if (stopped) return;
      timer = setTimeout(() => {
        void this.sweepOnce()
          .catch((err: unknown) => this.options.logger.warn({ err }, 'orphan sweep failed; next pass in an interval'))
          .finally(schedule);
      }, intervalMs);
      timer.unref();
    };
    schedule();
    return {
      name: 'orphan sweeper',
      close: async () => {
        stopped = true;
        clearTimeout(timer);
        await this.running?.catch(() => undefined);
      },
    };
  }

  private async pass(): Promise<SweepReport> {
    const { store, clock, graceMs, logger } = this.options;
    // Judged against the clock at the start: an object written during the pass is younger still.
    const started = clock();
    const cutoff = started.getTime() - graceMs;
    // Zips past their time first: their rows say which, so it costs the zips due, not a listing.
    const report: SweepReport = { listed: 0, young: 0, swept: 0, left: 0, expired: await deleteExpiredExports(this.options.db, store, started) };
    for (const kind of SWEPT_KINDS) {
      if (kind.namer === 'session' && !this.options.sessionPhotos) continue;
      let pending: Candidate[] = [];
      for await (const object of store.entries(kind.prefix)) {
        report.listed += 1;
        if (object.lastModified.getTime() > cutoff) {
          report.young += 1;
          continue;
        }
        const candidate = candidateOf(kind, object.key);
        if (!candidate) continue;
        pending.push(candidate);
        if (pending.length >= this.batch) {
          await this.settle(pending, report);
          pending = [];
        }
      }
      await this.settle(pending, report);
    }
    if (report.swept > 0 || report.left > 0 || report.expired > 0) logger.info({ ...report, graceMs }, 'orphan sweep');
    return report;
  }

  /** Deletes the batch's objects no row names. */
  private async settle(batch: Candidate[], report: SweepReport): Promise<void> {
    if (batch.length === 0) return;
    const named = await namedAmong(this.options.db, batch, this.options.sessionPhotos);
    const orphans = batch.filter((c) => !named.has(c.key));
    if (orphans.length === 0) return;
    const kept = new Set(await this.options.store.removeMany(orphans.map((c) => c.key)));
    const counts = new Map<string, number>();
    for (const orphan of orphans) {
      if (kept.has(orphan.key)) continue;
      counts.set(orphan.folder, (counts.get(orphan.folder) ?? 0) + 1);
    }
    for (const [folder, n] of counts) this.swept.inc({ folder }, n);
    report.swept += orphans.length - kept.size;
    report.left += kept.size;
    if (kept.size > 0) this.options.logger.warn({ keys: [...kept].slice(0, 20), count: kept.size }, 'orphans the store would not delete');
  }
}
