import { createHash } from 'node:crypto';
import { FILES_PREFIX } from '@hoptrack/runtime';
import pg from 'pg';
import { hashPassword } from '../../services/auth/src/domain/passwords';
import { adjacency, apportion, communityGraph, degrees, logNormals, random, type CommunityShape, type FriendGraph } from './lib/graph';
import { withIndexesDeferred } from './lib/deferred-indexes';
import { checkSeedCounts, expectedCounts } from './lib/seed-check';

/**
 * The bench's bulk loader. Registering 10,000 people through the API would
 * spend most of the bench's 20 minutes in argon2, so the data set is written
 * straight into each service's own tables — the same rows the services and
 * their event consumers write (auth's users; social-graph's users,
 * friendships both ways, blocks, mutes and session facts; the people and
 * graph read models of the services that keep them; sessions — one in four
 * with a stored photo — likes, comments, reactions), in one transaction per
 * database. Everything is deterministic: ids are md5-based
 * UUIDs of the person's number and the random choices come from seeded
 * generators, so two runs measure the same data.
 */

export interface Scale {
  users: number;
  sessions: number;
  /** Friends given to person 1, the celebrity (0 in a community: its best-connected person is person 1). */
  celebrityFriends: number;
  /** Averages per session: the loader writes exactly sessions × average rows of each (rounded). */
  likes: number;
  comments: number;
  reactions: number;
  /** The days the sessions spread over, back from the load. */
  days: number;
  /**
   * A community's shape (lib/graph.ts): a log-normal friendship graph instead of the
   * celebrity and the power-law asks, and authors by a log-normal activity instead of
   * the low-numbers skew. Absent at the smaller scales, whose data stay as they were.
   */
  community?: { graph: CommunityShape; activitySigma: number };
}

export const FULL_SCALE: Scale = { users: 10_000, sessions: 100_000, celebrityFriends: 5_000, likes: 3, comments: 1, reactions: 1.5, days: 90 };
export const SMOKE_SCALE: Scale = { users: 300, sessions: 2_000, celebrityFriends: 150, likes: 3, comments: 1, reactions: 1.5, days: 90 };

/**
 * A year of sessions at 24 a person (two a month on average; the activity is
 * log-normal with sigma 1.2, so the median person logs about 12 a year and the
 * keenest a few hundred, as a check-in app's users do).
 */
export const SESSIONS_PER_PERSON_YEAR = 24;

/**
 * A community of `people`: friend counts log-normal with median 100 and sigma 1
 * (mean about 165, p99 about 1,000, the best-connected a few thousand, capped
 * at 5,000), a year of sessions. COMMUNITY_SCALE is it at 100,000 people;
 * smaller ones (the load test, the disk estimate) have the same shape per person.
 */
export const communityScale = (people: number): Scale => ({
  users: people,
  sessions: people * SESSIONS_PER_PERSON_YEAR,
  celebrityFriends: 0,
  likes: 3,
  comments: 1,
  reactions: 1.5,
  days: 365,
  community: { graph: { medianFriends: 100, sigma: 1, maxFriends: 5_000, seed: 42 }, activitySigma: 1.2 },
});
export const COMMUNITY_SCALE: Scale = communityScale(100_000);

/** Every seeded person's password (the web bench signs in with it). */
export const SEED_PASSWORD = 'hoptrack-bench';

/** An md5 of the text shaped as a version-4 UUID (version nibble 4, variant 8), as the API's schemas demand. */
const uuidOf = (text: string) => {
  const md5 = createHash('md5').update(text).digest('hex');
  const h = `${md5.slice(0, 12)}4${md5.slice(13, 16)}8${md5.slice(17)}`;
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};
/** The same in SQL. */
const uuidSql = (text: string) => `overlay(overlay(md5(${text}) placing '4' from 13) placing '8' from 17)::uuid`;
/** The id of person `i` (1-based); SQL_USER computes the same in SQL. */
export const userId = (i: number) => uuidOf(`bench-user-${i}`);
const SQL_USER = (expr: string) => uuidSql(`'bench-user-' || (${expr})`);
/** The id of seeded session number `expr` (1-based), in SQL: the fan-out bench's drains pick sessions by number. */
export const seededSessionIdSql = (expr: string) => uuidSql(`'bench-session-' || (${expr})`);
export const email = (i: number) => `bench${i}@hoptrack.bench`;

export interface SeedInfo {
  scale: Scale;
  /** Friend pairs (each once). */
  friendships: number;
  /** Person 1: the most friends (the scale's `celebrityFriends`, or a community's best-connected). */
  celebrity: number;
  celebrityFriends: number;
  /** A typical reader: the person whose degree is the median (their feed is what most people see). */
  reader: number;
  readerFriends: number;
  /** A heavy reader: the person with the most friends but the celebrity (the fullest timeline). */
  heavyReader: number;
  heavyReaderFriends: number;
  /** Sessions with a stored photo (signed for each viewer on every read). */
  photos: number;
  /** Who blocked whom (strangers: a block ends a friendship), and friends muted. */
  blocks: number;
  mutes: number;
  seconds: number;
}

/**
 * Friend pairs with a skewed degree: person 1 has `celebrityFriends`, every
 * other person asks a number of others drawn from a power law (most a few,
 * some dozens), so degrees range from 1 to a few hundred. A community scale
 * has its log-normal graph instead (lib/graph.ts).
 */
function friendPairs(scale: Scale): FriendGraph {
  if (scale.community) return communityGraph(scale.users, scale.community.graph);
  const rnd = random(42);
  const seen = new Set<string>();
  const lo: number[] = [];
  const hi: number[] = [];
  const add = (a: number, b: number) => {
    if (a === b) return;
    const [x, y] = a < b ? [a, b] : [b, a];
    const key = `${x}:${y}`;
    if (seen.has(key)) return;
    seen.add(key);
    lo.push(x);
    hi.push(y);
  };
  for (let i = 2; i <= scale.celebrityFriends + 1 && i <= scale.users; i++) add(1, i);
  for (let i = 2; i <= scale.users; i++) {
    const degree = 1 + Math.floor(40 * rnd() ** 3);
    for (let k = 0; k < degree; k++) add(i, 2 + Math.floor(rnd() * (scale.users - 1)));
  }
  return { people: scale.users, lo: Int32Array.from(lo), hi: Int32Array.from(hi) };
}

/** People who blocked someone (mostly strangers who commented or liked) and who muted a friend. */
const BLOCKERS = 0.03;
const MUTERS = 0.05;

/**
 * Blocks and mutes, as a few percent of people leave them: a blocker blocks
 * one to three people they are not friends with (a block ends a friendship,
 * so a blocked pair is never friends), a muter mutes one or two of their
 * friends. Seeded like the friendships.
 */
function blocksAndMutes(scale: Scale, graph: FriendGraph): { blocks: Array<[number, number]>; mutes: Array<[number, number]> } {
  const { start, friends } = adjacency(graph);
  const rnd = random(7);
  const blocks: Array<[number, number]> = [];
  const mutes: Array<[number, number]> = [];
  const seen = new Set<string>();
  for (let i = 2; i <= scale.users; i++) {
    // Friends in the pairs' order, as the Set per person this replaced held them: the same draws pick the same people.
    const mine = friends.subarray(start[i], start[i + 1]);
    if (rnd() < BLOCKERS) {
      const count = 1 + Math.floor(rnd() * 3);
      for (let k = 0; k < count; k++) {
        const j = 2 + Math.floor(rnd() * (scale.users - 1));
        if (j === i || mine.includes(j) || seen.has(`b${i}:${j}`)) continue;
        seen.add(`b${i}:${j}`);
        blocks.push([i, j]);
      }
    }
    if (mine.length > 0 && rnd() < MUTERS) {
      const count = Math.min(mine.length, 1 + Math.floor(rnd() * 2));
      for (let k = 0; k < count; k++) {
        const j = mine[Math.floor(rnd() * mine.length)] as number;
        if (seen.has(`m${i}:${j}`)) continue;
        seen.add(`m${i}:${j}`);
        mutes.push([i, j]);
      }
    }
  }
  return { blocks, mutes };
}

/** The graph and the blocks and mutes a scale draws (deterministic: the same on every call). */
interface Shape {
  graph: FriendGraph;
  blocks: Array<[number, number]>;
  mutes: Array<[number, number]>;
}

function shapeOf(scale: Scale): Shape {
  const graph = friendPairs(scale);
  return { graph, ...blocksAndMutes(scale, graph) };
}

/** What the benchmarks need to know of a data set: its readers, from the graph it was drawn with. */
function infoOf(scale: Scale, { graph, blocks, mutes }: Shape, photos: number): SeedInfo {
  const { lo, hi } = graph;
  const n = scale.users;
  const degree = degrees(graph);
  // People in the order they first appear in the pairs (the order the readers were always picked in on ties).
  const order: number[] = [];
  const listed = new Uint8Array(n + 1);
  for (let k = 0; k < lo.length; k++) {
    for (const i of [lo[k]!, hi[k]!]) {
      if (listed[i]) continue;
      listed[i] = 1;
      order.push(i);
    }
  }
  const byDegree = order.filter((i) => i !== 1 && i % 10 !== 0).sort((x, y) => degree[x]! - degree[y]!);
  const reader = byDegree[Math.floor(byDegree.length / 2)] ?? 2;
  const heavyReader = byDegree[byDegree.length - 1] ?? 2;
  return {
    scale,
    friendships: lo.length,
    celebrity: 1,
    celebrityFriends: degree[1] ?? 0,
    reader,
    readerFriends: degree[reader] ?? 0,
    heavyReader,
    heavyReaderFriends: degree[heavyReader] ?? 0,
    photos,
    blocks: blocks.length,
    mutes: mutes.length,
    seconds: 0,
  };
}

/**
 * The SeedInfo of a data set already loaded (a copy of `make bench-load`'s
 * databases): the graph drawn again (deterministic, seconds at 100,000
 * people), the photos counted, and the loader's check of every table.
 */
export async function loadedSeedInfo(scale: Scale, databases: Record<BenchDatabase, string>): Promise<SeedInfo> {
  const started = performance.now();
  const db = new pg.Client({ connectionString: databases.sessions });
  await db.connect();
  const photos = Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM beer_sessions WHERE photo IS NOT NULL')).rows[0]?.n ?? 0);
  await db.end();
  const info = infoOf(scale, shapeOf(scale), photos);
  await checkSeedCounts(databases, expectedCounts(info));
  return { ...info, seconds: (performance.now() - started) / 1000 };
}

export interface SeedOptions {
  /** Drop the empty tables' keys and indexes for the load and build them after (lib/deferred-indexes.ts): only where no stack runs. */
  deferIndexes?: boolean;
}

async function inDatabase(url: string, work: (db: pg.Client) => Promise<void>, options: SeedOptions): Promise<void> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    await db.query('BEGIN');
    if (options.deferIndexes) await withIndexesDeferred(db, () => work(db));
    else await work(db);
    await db.query('COMMIT');
    // VACUUM too, not only the statistics: freshly inserted pages are not yet all-visible and their rows'
    // hint bits unset, work that the first reads or an autovacuum would otherwise do in the middle of a run.
    await db.query('VACUUM (ANALYZE)');
  } finally {
    await db.end();
  }
}

const TITLES = ['Friday pints', 'Brewery tour', 'Quiz night', 'After work', 'Tasting flight', 'Match day', 'Sunday session', 'Beer garden'];
const STYLES = ['IPA', 'Stout', 'Lager', 'Pilsner', 'Porter', 'Sour', 'Wheat', 'Pale Ale'];
const EMOJIS = ['🍺', '🍻', '🔥', '😂', '👏', '❤️'];

/** The services' databases the bench writes (run.ts names them per run). */
export type BenchDatabase = 'auth' | 'socialGraph' | 'sessions' | 'media' | 'messaging' | 'places' | 'notifications';

/** Pairs per statement: a statement's arrays stay a few megabytes however large the graph. */
const PAIR_BATCH = 250_000;

/** Runs `work` on the pairs (or any two columns of person numbers) a batch at a time, as plain arrays for pg. */
async function inBatches(lo: ArrayLike<number>, hi: ArrayLike<number>, work: (lo: number[], hi: number[]) => Promise<unknown>): Promise<void> {
  for (let from = 0; from < lo.length; from += PAIR_BATCH) {
    const to = Math.min(lo.length, from + PAIR_BATCH);
    await work(Array.from({ length: to - from }, (_, k) => lo[from + k] as number), Array.from({ length: to - from }, (_, k) => hi[from + k] as number));
  }
}

export type Interaction = 'likes' | 'comments' | 'reactions';
/** The rows of each interaction a scale asks for: its average per session times its sessions, rounded. */
export const interactionTotal = (scale: Scale, kind: Interaction): number => Math.round(scale.sessions * scale[kind]);

/** A uniform number in [0, 1) from a hash of the SQL text expression: the same for the same text on every run. */
const unitSql = (text: string) => `(('x' || substr(md5(${text}), 1, 8))::bit(32)::bigint::float8 / 4294967296)`;

/**
 * The rows of one kind of interaction (likes, comments, reactions): exactly
 * round(sessions × average) of them, spread over the sessions by exponential
 * weights (most sessions get a few, some many) — a running sum of the weights,
 * scaled to the total and floored, gives each session its count, so the counts
 * add up to the total exactly. The k-th actor of a session is the person after
 * a hashed start, so no one acts twice on one session (likes and reactions are
 * unique per person and session). Yields session_id, created_at, k and actor.
 *
 * (It replaced `LATERAL generate_series(1, floor(random() * …))`: with no
 * reference to the outer row Postgres evaluates that once, so every session
 * got the same count — ~5 likes and 0 reactions, say, instead of 3 and 1.5.)
 */
function interactionsSql(kind: Interaction, scale: Scale): string {
  const total = interactionTotal(scale, kind);
  const last = scale.sessions;
  return `WITH weights AS (
            SELECT s, -ln(1 - ${unitSql(`'bench-${kind}-' || s`)}) AS w FROM generate_series(1, ${last}) s
          ), upto AS (
            SELECT s, CASE WHEN s = ${last} THEN ${total}
                           ELSE least(${total}, floor(${total} * sum(w) OVER (ORDER BY s) / sum(w) OVER ())) END AS upto
            FROM weights
          ), counts AS (
            SELECT s, (upto - coalesce(lag(upto) OVER (ORDER BY s), 0))::int AS count FROM upto
          )
          SELECT b.id AS session_id, b.created_at, k,
                 ${SQL_USER(`1 + (floor(${unitSql(`'bench-${kind}-actor-' || c.s`)} * ${scale.users})::int + k - 1) % ${scale.users}`)} AS actor
          FROM counts c JOIN beer_sessions b ON b.id = ${seededSessionIdSql('c.s')}, generate_series(1, c.count) k
          WHERE c.count > 0`;
}


/**
 * Session authors. The smaller scales: skewed to low numbers (the celebrity
 * among them), drawn in SQL. A community: each person's count of the total in
 * proportion to a log-normal activity (apportioned exactly), the sessions
 * numbered in a hashed order so that a run of numbers has many authors (the
 * fan-out bench drains sessions by number).
 */
function authorsSql(scale: Scale): { sql: string; counts?: number[] } {
  const n = scale.users;
  if (!scale.community) {
    return {
      sql: `SELECT s, ${SQL_USER(`1 + floor(${n} * power(random(), 2))::int`)} AS user_id, t
            FROM generate_series(1, ${scale.sessions}) s, LATERAL (SELECT now() - random() * interval '${scale.days} days' AS t) c`,
    };
  }
  const activity = logNormals(n, 1, scale.community.activitySigma, random(11));
  return {
    sql: `SELECT s, ${SQL_USER('person')} AS user_id, now() - random() * interval '${scale.days} days' AS t
          FROM (SELECT row_number() OVER (ORDER BY md5('bench-order-' || person || '-' || j)) AS s, person
                FROM unnest($4::int[]) WITH ORDINALITY AS a(k, person), generate_series(1, a.k) j) numbered`,
    counts: Array.from(apportion(scale.sessions, activity)),
  };
}

/** Session facts are copied from sessions to social-graph this many at a time (keyset on the id). */
const FACTS_BATCH = 100_000;

export async function seed(scale: Scale, databases: Record<BenchDatabase, string>, options: SeedOptions = {}): Promise<SeedInfo> {
  const started = performance.now();
  const { graph, blocks, mutes } = shapeOf(scale);
  const { lo, hi } = graph;
  const byPerson = (list: Array<[number, number]>) => [list.map((p) => p[0]), list.map((p) => p[1])];
  const password = await hashPassword(SEED_PASSWORD);
  const n = scale.users;
  // Every tenth person is private; the rest public.
  const people = `SELECT i, ${SQL_USER('i')} AS id, 'bench_user_' || i AS username, 'Bench User ' || i AS display_name,
                         (i % 10 = 0) AS private, now() - (i || ' minutes')::interval AS joined
                  FROM generate_series(1, ${n}) i`;
  const bothWays = `SELECT ${SQL_USER('a')} AS a, ${SQL_USER('b')} AS b FROM unnest($1::int[], $2::int[]) AS p(x, y),
                    LATERAL (VALUES (x, y), (y, x)) AS d(a, b)`;
  const oneWay = `SELECT ${SQL_USER('x')} AS a, ${SQL_USER('y')} AS b FROM unnest($1::int[], $2::int[]) AS p(x, y)`;
  /**
   * The audience module's graph tables, as its consumer leaves them after
   * social-graph's events (services/runtime/src/audience/consumer.ts):
   * friendships as follows both ways, blocks, mutes. Every service that
   * keeps the graph part has them.
   */
  const graphTables = async (db: pg.Client) => {
    await inBatches(lo, hi, (x, y) => db.query(`INSERT INTO follows (follower_id, followee_id, is_friend) SELECT a, b, true FROM (${bothWays}) f`, [x, y]));
    await db.query(`INSERT INTO blocks (blocker_id, blocked_id) SELECT a, b FROM (${oneWay}) f`, byPerson(blocks));
    await db.query(`INSERT INTO mutes (user_id, muted_id) SELECT a, b FROM (${oneWay}) f`, byPerson(mutes));
  };

  await inDatabase(databases.auth, async (db) => {
    await db.query(
      `INSERT INTO users (id, email, username, password, display_name, is_profile_private, created_at, updated_at)
       SELECT id, 'bench' || i || '@hoptrack.bench', username, $1, display_name, private, joined, joined FROM (${people}) p`,
      [password],
    );
  }, options);
  await inDatabase(databases.socialGraph, async (db) => {
    await db.query(
      `INSERT INTO users (id, email, username, display_name, is_profile_private, allow_direct_messages, show_online_status, token_version, created_at, updated_at)
       SELECT id, 'bench' || i || '@hoptrack.bench', username, display_name, private, true, true, 0, joined, joined FROM (${people}) p`,
    );
    await inBatches(lo, hi, (x, y) =>
      db.query(
        `INSERT INTO friendships (id, user_id, friend_id, status, created_at, updated_at)
         SELECT gen_random_uuid(), a, b, 'accepted', now(), now() FROM (${bothWays}) f`,
        [x, y],
      ),
    );
    // social-graph's own rows behind the events: blocked_users, and the muter's side of the friendship.
    await db.query(`INSERT INTO blocked_users (id, blocker_id, blocked_id, created_at) SELECT gen_random_uuid(), a, b, now() FROM (${oneWay}) f`, byPerson(blocks));
    await db.query(`UPDATE friendships f SET is_muted = true FROM (${oneWay}) m WHERE f.user_id = m.a AND f.friend_id = m.b`, byPerson(mutes));
  }, options);
  await inDatabase(databases.media, async (db) => {
    await db.query(`INSERT INTO users (id, is_profile_private, updated_at) SELECT id, private, joined FROM (${people}) p`);
    await graphTables(db);
  }, options);
  await inDatabase(databases.messaging, async (db) => {
    await db.query(
      `INSERT INTO users (id, username, display_name, allow_direct_messages, token_version, updated_at)
       SELECT id, username, display_name, true, 0, joined FROM (${people}) p`,
    );
    await graphTables(db);
  }, options);
  await inDatabase(databases.places, graphTables, options);
  // The notifications service's people (with the address its mails go to) and graph: without
  // them every seeded actor is unknown there, so no like or comment of theirs would show.
  await inDatabase(databases.notifications, async (db) => {
    await db.query(
      `INSERT INTO users (id, username, display_name, email, is_profile_private, allow_direct_messages, show_online_status, token_version, created_at, updated_at)
       SELECT id, username, display_name, 'bench' || i || '@hoptrack.bench', private, true, true, 0, joined, joined FROM (${people}) p`,
    );
    await graphTables(db);
  }, options);
  await inDatabase(databases.sessions, async (db) => {
    await db.query('SELECT setseed(0.42)');
    await db.query(`INSERT INTO users (id, username, display_name, is_profile_private, updated_at) SELECT id, username, display_name, private, joined FROM (${people}) p`);
    await graphTables(db);
    // Authors per the scale (authorsSql), spread over its days.
    // One in four (by a hash of its number) has a photo stored as the product stores one: the
    // author's key under uploads/, which the feed signs for each viewer (the file itself is not needed to read it).
    const authors = authorsSql(scale);
    await db.query(
      `WITH drawn AS MATERIALIZED (${authors.sql})
       INSERT INTO beer_sessions (id, user_id, title, description, beer_count, duration, avg_abv, beer_types, photo, location, music_track, created_at, updated_at)
       SELECT ${seededSessionIdSql('s')}, user_id,
              ($1::text[])[1 + s % 8], CASE WHEN s % 3 = 0 THEN 'A good evening with friends.' END,
              1 + s % 8, 30 + (s % 10) * 20, (4 + s % 5) || '.' || (s % 10),
              ARRAY[($2::text[])[1 + s % 8], ($2::text[])[1 + (s / 8) % 8]],
              CASE WHEN get_byte(decode(md5('bench-photo-' || s), 'hex'), 0) % 4 = 0
                   THEN $3::text || 'uploads/' || user_id::text || '/' || ${uuidSql(`'bench-photo-' || s`)}::text || '.webp' END,
              CASE WHEN s % 2 = 0 THEN 'The Bench Arms' END,
              CASE WHEN s % 5 = 0 THEN '{"title":"Song","artist":"Band"}'::jsonb END,
              t, t
       FROM drawn`,
      authors.counts ? [TITLES, STYLES, FILES_PREFIX, authors.counts] : [TITLES, STYLES, FILES_PREFIX],
    );
    await db.query(
      `INSERT INTO likes (id, user_id, session_id, created_at)
       SELECT gen_random_uuid(), actor, session_id, created_at + interval '1 hour' FROM (${interactionsSql('likes', scale)}) i`,
    );
    await db.query(
      `INSERT INTO comments (id, session_id, user_id, content, created_at)
       SELECT gen_random_uuid(), session_id, actor, 'Cheers to that! #' || k, created_at + k * interval '1 minute' FROM (${interactionsSql('comments', scale)}) i`,
    );
    await db.query(
      `INSERT INTO reactions (id, user_id, session_id, emoji, created_at)
       SELECT gen_random_uuid(), actor, session_id, ($1::text[])[1 + floor(${unitSql(`'bench-emoji-' || session_id || '-' || k`)} * 6)::int], created_at + interval '2 hours'
       FROM (${interactionsSql('reactions', scale)}) i`,
      [EMOJIS],
    );
  }, options);
  // The stats card's read model in social-graph: one fact per session, as its consumer writes them,
  // copied a batch at a time (a year of a community's sessions is millions of rows).
  const source = new pg.Client({ connectionString: databases.sessions });
  await source.connect();
  const photos = Number((await source.query<{ n: string }>('SELECT count(*) AS n FROM beer_sessions WHERE photo IS NOT NULL')).rows[0]?.n ?? 0);
  await inDatabase(databases.socialGraph, async (db) => {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows = (
        await source.query<{ id: string; user_id: string; beer_count: number; duration: number; created_at: Date }>(
          'SELECT id, user_id, beer_count, duration, created_at FROM beer_sessions WHERE id > $1 ORDER BY id LIMIT $2',
          [after, FACTS_BATCH],
        )
      ).rows;
      if (rows.length === 0) break;
      await db.query(
        `INSERT INTO session_facts (session_id, user_id, beer_count, duration_minutes, created_at)
         SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::int[], $5::timestamptz[])`,
        [rows.map((r) => r.id), rows.map((r) => r.user_id), rows.map((r) => r.beer_count), rows.map((r) => r.duration), rows.map((r) => r.created_at)],
      );
      after = rows[rows.length - 1]!.id;
    }
  }, options);
  await source.end();

  const info = infoOf(scale, { graph, blocks, mutes }, photos);
  // The loader's own check: every table holds what the scale says, or the load fails here, loudly.
  await checkSeedCounts(databases, expectedCounts(info));
  return { ...info, seconds: (performance.now() - started) / 1000 };
}
