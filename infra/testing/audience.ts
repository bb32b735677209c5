import type { SqlClient } from '@hoptrack/runtime';

type AudienceTable = 'users' | 'follows' | 'blocks' | 'mutes';

/**
 * Rows of an audience table (services/runtime/src/audience) matching every
 * `column = value` of `where`, for tests that wait until an event was applied.
 * Services have no Prisma models of these tables; the module owns them.
 */
export async function audienceRows(db: SqlClient, table: AudienceTable, where: Record<string, string | boolean>): Promise<number> {
  const columns = Object.keys(where);
  for (const name of columns) if (!/^[a-z_]+$/.test(name)) throw new Error(`not a column: ${name}`);
  const condition = columns.length ? `WHERE ${columns.map((c, i) => `"${c}" = $${i + 1}`).join(' AND ')}` : '';
  const [row] = await db.$queryRawUnsafe<Array<{ n: number }>>(`SELECT count(*)::int AS "n" FROM "${table}" ${condition}`, ...columns.map((c) => where[c]));
  return row?.n ?? 0;
}
