import pg from 'pg';
import { interactionTotal, type BenchDatabase, type SeedInfo } from '../seed';

/**
 * The loader's check of itself: after a load, every table it wrote is
 * counted and compared with what the scale and the generated graph say. A
 * generator that drifts (an earlier one wrote the same number of likes on
 * every session, and no reactions at all) fails the load here instead of
 * skewing the figures measured on it.
 */
export interface ExpectedCount {
  database: BenchDatabase;
  /** A count(*) query, named for the report. */
  table: string;
  where?: string;
  rows: number;
}

/** The services that keep the audience module's graph tables (follows both ways, blocks, mutes). */
const GRAPH_KEEPERS: BenchDatabase[] = ['sessions', 'media', 'messaging', 'places', 'notifications'];
/** Those with a people table of their own (places keeps only the graph). */
const PEOPLE_KEEPERS: BenchDatabase[] = ['auth', 'socialGraph', 'sessions', 'media', 'messaging', 'notifications'];

export function expectedCounts(seed: SeedInfo): ExpectedCount[] {
  const { scale } = seed;
  return [
    ...PEOPLE_KEEPERS.map((database): ExpectedCount => ({ database, table: 'users', rows: scale.users })),
    ...GRAPH_KEEPERS.flatMap((database): ExpectedCount[] => [
      { database, table: 'follows', rows: 2 * seed.friendships },
      { database, table: 'blocks', rows: seed.blocks },
      { database, table: 'mutes', rows: seed.mutes },
    ]),
    { database: 'socialGraph', table: 'friendships', rows: 2 * seed.friendships },
    { database: 'socialGraph', table: 'friendships', where: 'is_muted', rows: seed.mutes },
    { database: 'socialGraph', table: 'blocked_users', rows: seed.blocks },
    { database: 'socialGraph', table: 'session_facts', rows: scale.sessions },
    { database: 'sessions', table: 'beer_sessions', rows: scale.sessions },
    { database: 'sessions', table: 'beer_sessions', where: 'photo IS NOT NULL', rows: seed.photos },
    { database: 'sessions', table: 'likes', rows: interactionTotal(scale, 'likes') },
    { database: 'sessions', table: 'comments', rows: interactionTotal(scale, 'comments') },
    { database: 'sessions', table: 'reactions', rows: interactionTotal(scale, 'reactions') },
  ];
}

/** Counts every expected table; throws one error naming every mismatch. */
export async function checkSeedCounts(databases: Record<BenchDatabase, string>, expected: ExpectedCount[]): Promise<void> {
  const wrong: string[] = [];
  for (const database of new Set(expected.map((e) => e.database))) {
    const db = new pg.Client({ connectionString: databases[database] });
    await db.connect();
    try {
      for (const e of expected.filter((x) => x.database === database)) {
        const found = Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${e.table}${e.where ? ` WHERE ${e.where}` : ''}`)).rows[0]?.n ?? -1);
        if (found !== e.rows) wrong.push(`${database}.${e.table}${e.where ? ` (${e.where})` : ''}: ${found} rows, the scale says ${e.rows}`);
      }
    } finally {
      await db.end();
    }
  }
  if (wrong.length > 0) throw new Error(`The seeded data do not match the scale:\n  ${wrong.join('\n  ')}`);
}
