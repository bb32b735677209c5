import type { SqlClient } from '@hoptrack/runtime';
import { exportAssembliesRepository } from '../repositories/export-assemblies.repository';
import type { ObjectStore } from '../storage/object-store';

/** Zips deleted per round trip: one S3 DeleteObjects call and one statement. */
const BATCH = 500;

/**
 * Deletes the zips past their time (issue 39, finding 9): those past their
 * lifetime (media's EXPORT_TTL_HOURS) and those a newer export of the same
 * person replaced. The object goes first and its row after, so a zip the
 * store kept (an outage) keeps its row and is tried again on the next pass;
 * a row whose delete failed after its object went only repeats a delete.
 * `userId`: one person's (right after their new zip is built), else
 * everyone's (the media worker's periodic pass). How many zips went.
 */
export async function deleteExpiredExports(db: SqlClient, store: ObjectStore, now: Date, userId?: string): Promise<number> {
  let deleted = 0;
  for (;;) {
    const due = await exportAssembliesRepository.expired(db, now, BATCH, userId);
    if (due.length === 0) return deleted;
    const kept = new Set(await store.removeMany(due.map((row) => row.key)));
    const gone = due.filter((row) => !kept.has(row.key)).map((row) => row.export_id);
    if (gone.length > 0) await exportAssembliesRepository.deleteByIds(db, gone);
    deleted += gone.length;
    // Some the store kept: they wait for the next pass rather than spin here.
    if (kept.size > 0 || due.length < BATCH) return deleted;
  }
}
