import type pg from 'pg';

/**
 * Bulk loading with the indexes built once, after the rows (Postgres's
 * "Populating a Database"): a table's primary key, unique constraints,
 * indexes and foreign keys are dropped while it is empty, and made again
 * from their own definitions once the load's rows are in — in the same
 * transaction, so nobody sees the table without them. Building a B-tree by
 * sorting millions of rows costs a fraction of inserting them one at a time
 * into random (uuid) positions of an index larger than shared_buffers, which
 * is what made the 100,000-person load take over an hour.
 *
 * Only for a database nobody else uses while it loads (infra/bench/load.ts,
 * the load test): dropping an index locks its table until the commit.
 */
export async function withIndexesDeferred(db: pg.Client, work: () => Promise<void>): Promise<void> {
  const tables = await emptyTables(db);
  if (tables.length === 0) return work();
  const constraints = (
    await db.query<{ tbl: string; name: string; type: string; def: string }>(
      `SELECT c.conrelid::regclass::text AS tbl, quote_ident(c.conname) AS name, c.contype AS type, pg_get_constraintdef(c.oid) AS def
         FROM pg_constraint c
        WHERE (c.conrelid = ANY($1::regclass[]) AND c.contype IN ('p', 'u', 'x', 'f'))
           -- and a full table's foreign key to an empty one's key, which could not go otherwise
           OR (c.confrelid = ANY($1::regclass[]) AND c.contype = 'f')
        ORDER BY c.oid`,
      [tables],
    )
  ).rows;
  // Indexes of their own (not those a constraint above owns).
  const indexes = (
    await db.query<{ name: string; def: string }>(
      `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def
         FROM pg_index i
        WHERE i.indrelid = ANY($1::regclass[])
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.contype IN ('p', 'u', 'x'))
        ORDER BY i.indexrelid`,
      [tables],
    )
  ).rows;
  const foreign = constraints.filter((c) => c.type === 'f');
  const keys = constraints.filter((c) => c.type !== 'f');
  // Foreign keys first: a key another table's foreign key points at cannot go before it.
  for (const c of [...foreign, ...keys]) await db.query(`ALTER TABLE ${c.tbl} DROP CONSTRAINT ${c.name}`);
  for (const index of indexes) await db.query(`DROP INDEX ${index.name}`);
  await work();
  // Sorting for the builds in memory, not in temporary files.
  await db.query(`SET LOCAL maintenance_work_mem = '512MB'`);
  for (const c of keys) await db.query(`ALTER TABLE ${c.tbl} ADD CONSTRAINT ${c.name} ${c.def}`);
  for (const index of indexes) await db.query(index.def);
  for (const c of foreign) await db.query(`ALTER TABLE ${c.tbl} ADD CONSTRAINT ${c.name} ${c.def}`);
}

/** The database's tables (schema public, migrations' bookkeeping aside) that hold no row yet. */
async function emptyTables(db: pg.Client): Promise<string[]> {
  const all = (
    await db.query<{ tbl: string }>(
      `SELECT c.oid::regclass::text AS tbl FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname !~ 'migrations$' ORDER BY 1`,
    )
  ).rows;
  const empty: string[] = [];
  for (const { tbl } of all) {
    const found = await db.query(`SELECT 1 FROM ${tbl} LIMIT 1`);
    if (found.rowCount === 0) empty.push(tbl);
  }
  return empty;
}
