import { createHash } from 'node:crypto';
import pg from 'pg';
import { hashPassword } from '../../services/auth/src/domain/passwords';

/**
 * The bench's bulk loader. Registering 10,000 people through the API would
 * spend most of the bench's 20 minutes in argon2, so the data set is written
 * straight into each service's own tables — the same rows the services and
 * their event consumers write (auth's users; social-graph's users,
 * friendships both ways and session facts; sessions', media's and
 * messaging's read models; sessions, likes, comments, reactions), in one
 * transaction per database. Everything is deterministic: ids are md5-based
 * UUIDs of the person's number and the random choices come from seeded
 * generators, so two runs measure the same data.
 */

export interface Scale {
  users: number;
  sessions: number;
  /** Friends of person 1, the celebrity. */
  celebrityFriends: number;
  /** Averages per session. */
  likes: number;
  comments: number;
  reactions: number;
}

export const FULL_SCALE: Scale = { users: 10_000, sessions: 100_000, celebrityFriends: 5_000, likes: 3, comments: 1, reactions: 1.5 };
export const SMOKE_SCALE: Scale = { users: 300, sessions: 2_000, celebrityFriends: 150, likes: 3, comments: 1, reactions: 1.5 };

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
export const email = (i: number) => `bench${i}@hoptrack.bench`;

/** mulberry32: a small seeded generator, so the graph is the same on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SeedInfo {
  scale: Scale;
  /** Friend pairs (each once). */
  friendships: number;
  /** Person 1: befriended by `celebrityFriends` people. */
  celebrity: number;
  /** A typical reader: the person whose degree is the median (their feed is what most people see). */
  reader: number;
  readerFriends: number;
  seconds: number;
}

/**
 * Friend pairs with a skewed degree: person 1 has `celebrityFriends`, every
 * other person asks a number of others drawn from a power law (most a few,
 * some dozens), so degrees range from 1 to a few hundred.
 */
function friendPairs(scale: Scale): Array<[number, number]> {
  const rnd = random(42);
  const seen = new Set<string>();
  const pairs: Array<[number, number]> = [];
  const add = (a: number, b: number) => {
    if (a === b) return;
    const [lo, hi] = a < b ? [a, b] : [b, a];
    const key = `${lo}:${hi}`;
    if (seen.has(key)) return;
    seen.add(key);
    pairs.push([lo, hi]);
  };
  for (let i = 2; i <= scale.celebrityFriends + 1 && i <= scale.users; i++) add(1, i);
  for (let i = 2; i <= scale.users; i++) {
    const degree = 1 + Math.floor(40 * rnd() ** 3);
    for (let k = 0; k < degree; k++) add(i, 2 + Math.floor(rnd() * (scale.users - 1)));
  }
  return pairs;
}

async function inDatabase(url: string, work: (db: pg.Client) => Promise<void>): Promise<void> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    await db.query('BEGIN');
    await work(db);
    await db.query('COMMIT');
    await db.query('ANALYZE');
  } finally {
    await db.end();
  }
}

const TITLES = ['Friday pints', 'Brewery tour', 'Quiz night', 'After work', 'Tasting flight', 'Match day', 'Sunday session', 'Beer garden'];
const STYLES = ['IPA', 'Stout', 'Lager', 'Pilsner', 'Porter', 'Sour', 'Wheat', 'Pale Ale'];
const EMOJIS = ['🍺', '🍻', '🔥', '😂', '👏', '❤️'];

export async function seed(scale: Scale, databases: Record<'auth' | 'socialGraph' | 'sessions' | 'media' | 'messaging', string>): Promise<SeedInfo> {
  const started = performance.now();
  const pairs = friendPairs(scale);
  const lo = pairs.map((p) => p[0]);
  const hi = pairs.map((p) => p[1]);
  const password = await hashPassword(SEED_PASSWORD);
  const n = scale.users;
  // Every tenth person is private; the rest public.
  const people = `SELECT i, ${SQL_USER('i')} AS id, 'bench_user_' || i AS username, 'Bench User ' || i AS display_name,
                         (i % 10 = 0) AS private, now() - (i || ' minutes')::interval AS joined
                  FROM generate_series(1, ${n}) i`;
  const bothWays = `SELECT ${SQL_USER('a')} AS a, ${SQL_USER('b')} AS b FROM unnest($1::int[], $2::int[]) AS p(x, y),
                    LATERAL (VALUES (x, y), (y, x)) AS d(a, b)`;

  await inDatabase(databases.auth, async (db) => {
    await db.query(
      `INSERT INTO users (id, email, username, password, display_name, is_profile_private, created_at, updated_at)
       SELECT id, 'bench' || i || '@hoptrack.bench', username, $1, display_name, private, joined, joined FROM (${people}) p`,
      [password],
    );
  });
  await inDatabase(databases.socialGraph, async (db) => {
    await db.query(
      `INSERT INTO users (id, email, username, display_name, is_profile_private, allow_direct_messages, show_online_status, token_version, created_at, updated_at)
       SELECT id, 'bench' || i || '@hoptrack.bench', username, display_name, private, true, true, 0, joined, joined FROM (${people}) p`,
    );
    await db.query(
      `INSERT INTO friendships (id, user_id, friend_id, status, created_at, updated_at)
       SELECT gen_random_uuid(), a, b, 'accepted', now(), now() FROM (${bothWays}) f`,
      [lo, hi],
    );
  });
  await inDatabase(databases.media, async (db) => {
    await db.query(`INSERT INTO users (id, is_profile_private, updated_at) SELECT id, private, joined FROM (${people}) p`);
    await db.query(`INSERT INTO follows (follower_id, followee_id, is_friend) SELECT a, b, true FROM (${bothWays}) f`, [lo, hi]);
  });
  await inDatabase(databases.messaging, async (db) => {
    await db.query(
      `INSERT INTO users (id, username, display_name, allow_direct_messages, token_version, updated_at)
       SELECT id, username, display_name, true, 0, joined FROM (${people}) p`,
    );
  });
  await inDatabase(databases.sessions, async (db) => {
    await db.query('SELECT setseed(0.42)');
    await db.query(`INSERT INTO users (id, username, display_name, is_profile_private, updated_at) SELECT id, username, display_name, private, joined FROM (${people}) p`);
    await db.query(`INSERT INTO follows (follower_id, followee_id, is_friend) SELECT a, b, true FROM (${bothWays}) f`, [lo, hi]);
    // Authors are skewed too: low numbers (the celebrity among them) log more. Spread over the last 90 days.
    await db.query(
      `INSERT INTO beer_sessions (id, user_id, title, description, beer_count, duration, avg_abv, beer_types, location, music_track, created_at, updated_at)
       SELECT ${uuidSql(`'bench-session-' || s`)}, ${SQL_USER(`1 + floor(${n} * power(random(), 2))::int`)},
              ($1::text[])[1 + s % 8], CASE WHEN s % 3 = 0 THEN 'A good evening with friends.' END,
              1 + s % 8, 30 + (s % 10) * 20, (4 + s % 5) || '.' || (s % 10),
              ARRAY[($2::text[])[1 + s % 8], ($2::text[])[1 + (s / 8) % 8]],
              CASE WHEN s % 2 = 0 THEN 'The Bench Arms' END,
              CASE WHEN s % 5 = 0 THEN '{"title":"Song","artist":"Band"}'::jsonb END,
              t, t
       FROM generate_series(1, ${scale.sessions}) s, LATERAL (SELECT now() - random() * interval '90 days' AS t) c`,
      [TITLES, STYLES],
    );
    const perSession = (avg: number) => `generate_series(1, floor(random() * ${2 * avg + 1})::int)`;
    const someone = SQL_USER(`1 + floor(random() * ${n})::int`);
    await db.query(
      `INSERT INTO likes (id, user_id, session_id, created_at)
       SELECT gen_random_uuid(), ${someone}, s.id, s.created_at + interval '1 hour' FROM beer_sessions s, LATERAL ${perSession(scale.likes)} k
       ON CONFLICT DO NOTHING`,
    );
    await db.query(
      `INSERT INTO comments (id, session_id, user_id, content, created_at)
       SELECT gen_random_uuid(), s.id, ${someone}, 'Cheers to that! #' || k, s.created_at + k * interval '1 minute'
       FROM beer_sessions s, LATERAL ${perSession(scale.comments)} k`,
    );
    await db.query(
      `INSERT INTO reactions (id, user_id, session_id, emoji, created_at)
       SELECT gen_random_uuid(), ${someone}, s.id, ($1::text[])[1 + floor(random() * 6)::int], s.created_at + interval '2 hours'
       FROM beer_sessions s, LATERAL ${perSession(scale.reactions)} k
       ON CONFLICT DO NOTHING`,
      [EMOJIS],
    );
  });
  // The stats card's read model in social-graph: one fact per session, as its consumer writes them.
  const facts = new pg.Client({ connectionString: databases.sessions });
  await facts.connect();
  const rows = (await facts.query<{ id: string; user_id: string; beer_count: number; duration: number; created_at: Date }>('SELECT id, user_id, beer_count, duration, created_at FROM beer_sessions')).rows;
  await facts.end();
  await inDatabase(databases.socialGraph, async (db) => {
    await db.query(
      `INSERT INTO session_facts (session_id, user_id, beer_count, duration_minutes, created_at)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::int[], $5::timestamptz[])`,
      [rows.map((r) => r.id), rows.map((r) => r.user_id), rows.map((r) => r.beer_count), rows.map((r) => r.duration), rows.map((r) => r.created_at)],
    );
  });

  const degree = new Map<number, number>();
  for (const [a, b] of pairs) {
    degree.set(a, (degree.get(a) ?? 0) + 1);
    degree.set(b, (degree.get(b) ?? 0) + 1);
  }
  const byDegree = [...degree.entries()].filter(([i]) => i !== 1 && i % 10 !== 0).sort((x, y) => x[1] - y[1]);
  const [reader, readerFriends] = byDegree[Math.floor(byDegree.length / 2)] ?? [2, 0];
  return { scale, friendships: pairs.length, celebrity: 1, reader, readerFriends, seconds: (performance.now() - started) / 1000 };
}
