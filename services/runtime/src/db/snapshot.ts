import { executeSql, identifier, joinSql, sql, type Sql } from './fragment';
import type { SqlClient } from './sql';

/**
 * A read-model row: its id, the source's version (0 for a snapshot published
 * before versions existed), its updatedAt, and the other columns by their SQL names.
 */
export type SnapshotRow = { id: string; version: number; updated_at: Date } & Record<string, unknown>;

/**
 * Stores a snapshot taken from an event unless the row already holds a newer
 * one, in one statement. Read models are fed by at-least-once delivery: an
 * event may come twice, or after a later one, and a stale snapshot must never
 * overwrite a fresh one.
 *
 * Newer means a higher version: the owning service increments it in the
 * statement that makes the change, so two changes are ordered as the owner's
 * database ordered them. Never by updated_at: that is the clock of whichever
 * replica handled the change, and a replica running minutes behind would have
 * its password reset dropped everywhere (issue 38). Snapshots published
 * before versions existed carry none (0): they lose to any versioned one, and
 * among themselves keep the order they had, by updated_at.
 */
export async function upsertNewerSnapshot(db: SqlClient, table: string, row: SnapshotRow): Promise<void> {
  const columns = Object.keys(row);
  const into = identifier(`"${table}"`);
  const names = columns.map((c) => identifier(`"${c}"`));
  const updates = columns.filter((c) => c !== 'id').map((c) => sql`${identifier(`"${c}"`)} = EXCLUDED.${identifier(`"${c}"`)}`);
  await executeSql(
    db,
    sql`INSERT INTO ${into} (${joinSql(names)}) VALUES (${joinSql(columns.map((c) => sql`${row[c]}`))})
     ON CONFLICT ("id") DO UPDATE SET ${joinSql(updates)} WHERE ${newerSnapshot(table)}`,
  );
}

/**
 * The condition under which a snapshot replaces the row of `table` that
 * holds an earlier one (`ON CONFLICT … DO UPDATE … WHERE ${newerSnapshot(t)}`),
 * for a read model keyed by something else than "id": the rule above, written
 * once. The table needs `version` and `updated_at`.
 */
export function newerSnapshot(table: string): Sql {
  const held = identifier(table);
  return sql`(${held}."version" < EXCLUDED."version"
    OR (EXCLUDED."version" = 0 AND ${held}."version" = 0 AND ${held}."updated_at" <= EXCLUDED."updated_at"))`;
}
