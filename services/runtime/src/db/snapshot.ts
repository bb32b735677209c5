import type { SqlClient } from './sql';

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** A read-model row: its id, the source's updatedAt, and the other columns by their SQL names. */
export type SnapshotRow = { id: string; updated_at: Date } & Record<string, unknown>;

/**
 * Stores a snapshot taken from an event unless the row already holds a newer
 * one, in one statement. Read models are fed by at-least-once delivery: an
 * event may come twice, or after a later one, and a stale snapshot must never
 * overwrite a fresh one. Table and column names come from code, never input;
 * they are checked anyway because they are spliced into the SQL.
 */
export async function upsertNewerSnapshot(db: SqlClient, table: string, row: SnapshotRow): Promise<void> {
  const columns = Object.keys(row);
  for (const name of [table, ...columns]) {
    if (!IDENTIFIER.test(name)) throw new Error(`not an SQL identifier: ${name}`);
  }
  const quoted = columns.map((c) => `"${c}"`);
  const updates = quoted.filter((c) => c !== '"id"').map((c) => `${c} = EXCLUDED.${c}`);
  await db.$executeRawUnsafe(
    `INSERT INTO "${table}" (${quoted.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})
     ON CONFLICT ("id") DO UPDATE SET ${updates.join(', ')}
     WHERE "${table}"."updated_at" <= EXCLUDED."updated_at"`,
    ...columns.map((c) => row[c]),
  );
}
