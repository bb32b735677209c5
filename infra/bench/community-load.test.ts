import { testDatabaseSuffix } from '@hoptrack/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchDatabases, dropDatabases, freshBenchDatabases } from './lib/bench-databases';
import { checkSeedCounts, expectedCounts } from './lib/seed-check';
import { communityScale, interactionTotal, seed, type SeedInfo } from './seed';

/**
 * The bulk loader on a small community (1,000 people, COMMUNITY_SCALE's shape
 * per person: median 100 friends, a year of sessions): it loads into databases
 * migrated as the services migrate theirs, and every table holds exactly what
 * the scale says (the loader's own check, seed-check.ts, which must also fail
 * when a row is missing).
 */
const databases = benchDatabases(`_communityload${testDatabaseSuffix()}`);
const scale = communityScale(1_000);

const count = async (url: string, sql: string): Promise<number> => {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return Number((await db.query<{ n: string }>(sql)).rows[0]?.n);
  } finally {
    await db.end();
  }
};

/** Every key, index and foreign key of a database, as Postgres would write them again. */
async function schemaOf(url: string): Promise<string[]> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const rows = await db.query<{ def: string }>(
      `SELECT conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE connamespace = 'public'::regnamespace
       UNION ALL SELECT pg_get_indexdef(indexrelid) FROM pg_index JOIN pg_class c ON c.oid = indexrelid WHERE c.relnamespace = 'public'::regnamespace
       ORDER BY 1`,
    );
    return rows.rows.map((r) => r.def);
  } finally {
    await db.end();
  }
}

describe('a community-shaped load', () => {
  let info: SeedInfo;
  const migrated: Record<string, string[]> = {};
  beforeAll(async () => {
    await freshBenchDatabases(databases);
    for (const [name, url] of Object.entries(databases)) migrated[name] = await schemaOf(url);
    info = await seed(scale, databases, { deferIndexes: true });
  });
  afterAll(() => dropDatabases(Object.values(databases)));

  it('writes the scale’s sessions and exactly its averages of likes, comments and reactions', async () => {
    expect(await count(databases.sessions, 'SELECT count(*) AS n FROM beer_sessions')).toBe(scale.sessions);
    expect(await count(databases.sessions, 'SELECT count(*) AS n FROM likes')).toBe(interactionTotal(scale, 'likes'));
    expect(interactionTotal(scale, 'likes')).toBe(3 * scale.sessions);
    expect(await count(databases.sessions, 'SELECT count(*) AS n FROM reactions')).toBe(1.5 * scale.sessions);
    // Not every session alike: the counts vary (the old generator gave each session the same number).
    expect(await count(databases.sessions, 'SELECT count(DISTINCT c) AS n FROM (SELECT count(*) AS c FROM likes GROUP BY session_id) x')).toBeGreaterThan(5);
  });

  it('spreads the sessions over a year and gives people a community’s friends', async () => {
    const days = await count(databases.sessions, "SELECT extract(day FROM now() - min(created_at)) AS n FROM beer_sessions");
    expect(days).toBeGreaterThanOrEqual(360);
    expect(info.readerFriends).toBeGreaterThanOrEqual(90);
    expect(info.readerFriends).toBeLessThanOrEqual(110);
    expect(info.celebrityFriends).toBeGreaterThan(5 * info.readerFriends);
  });

  it('leaves every key, index and foreign key the migrations made, built after the rows', async () => {
    for (const [name, url] of Object.entries(databases)) {
      expect(migrated[name]?.length, name).toBeGreaterThan(3);
      expect(await schemaOf(url), name).toEqual(migrated[name]);
    }
  });

  it('fails the load’s check when a table holds fewer rows than the scale says', async () => {
    const db = new pg.Client({ connectionString: databases.sessions });
    await db.connect();
    await db.query('DELETE FROM reactions WHERE id IN (SELECT id FROM reactions LIMIT 1)');
    await db.end();
    await expect(checkSeedCounts(databases, expectedCounts(info))).rejects.toThrow(`sessions.reactions: ${interactionTotal(scale, 'reactions') - 1} rows, the scale says ${interactionTotal(scale, 'reactions')}`);
  });
});
