import { createHash } from 'node:crypto';
import { FILES_PREFIX } from '@hoptrack/runtime';
import pg from 'pg';
import { hashPassword } from '../../services/auth/src/domain/passwords';

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
/** The id of seeded session number `expr` (1-based), in SQL: the fan-out bench's drains pick sessions by number. */
export const seededSessionIdSql = (expr: string) => uuidSql(`'bench-session-' || (${expr})`);
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

/** People who blocked someone (mostly strangers who commented or liked) and who muted a friend. */
const BLOCKERS = 0.03;
const MUTERS = 0.05;

/**
 * Blocks and mutes, as a few percent of people leave them: a blocker blocks
 * one to three people they are not friends with (a block ends a friendship,
 * so a blocked pair is never friends), a muter mutes one or two of their
 * friends. Seeded like the friendships.
 */
function blocksAndMutes(scale: Scale, pairs: Array<[number, number]>): { blocks: Array<[number, number]>; mutes: Array<[number, number]> } {
  const friends = new Map<number, Set<number>>();
  const friendsOf = (i: number) => {
    let set = friends.get(i);
    if (!set) friends.set(i, (set = new Set()));
    return set;
  };
  for (const [a, b] of pairs) {
    friendsOf(a).add(b);
    friendsOf(b).add(a);
  }
  const rnd = random(7);
  const blocks: Array<[number, number]> = [];
  const mutes: Array<[number, number]> = [];
  const seen = new Set<string>();
  for (let i = 2; i <= scale.users; i++) {
    const mine = friends.get(i) ?? new Set<number>();
    if (rnd() < BLOCKERS) {
      const count = 1 + Math.floor(rnd() * 3);
      for (let k = 0; k < count; k++) {
        const j = 2 + Math.floor(rnd() * (scale.users - 1));
        if (j === i || mine.has(j) || seen.has(`b${i}:${j}`)) continue;
        seen.add(`b${i}:${j}`);
        blocks.push([i, j]);
      }
    }
    if (mine.size > 0 && rnd() < MUTERS) {
      const list = [...mine];
      const count = Math.min(list.length, 1 + Math.floor(rnd() * 2));
      for (let k = 0; k < count; k++) {
        const j = list[Math.floor(rnd() * list.length)] as number;
        if (seen.has(`m${i}:${j}`)) continue;
        seen.add(`m${i}:${j}`);
        mutes.push([i, j]);
      }
    }
  }
  return { blocks, mutes };
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

/** The services' databases the bench writes (run.ts names them per run). */
export type BenchDatabase = 'auth' | 'socialGraph' | 'sessions' | 'media' | 'messaging' | 'places' | 'notifications';

export async function seed(scale: Scale, databases: Record<BenchDatabase, string>): Promise<SeedInfo> {
  const started = performance.now();
  const pairs = friendPairs(scale);
  const lo = pairs.map((p) => p[0]);
  const hi = pairs.map((p) => p[1]);
  const { blocks, mutes } = blocksAndMutes(scale, pairs);
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
  const graph = async (db: pg.Client) => {
    await db.query(`INSERT INTO follows (follower_id, followee_id, is_friend) SELECT a, b, true FROM (${bothWays}) f`, [lo, hi]);
    await db.query(`INSERT INTO blocks (blocker_id, blocked_id) SELECT a, b FROM (${oneWay}) f`, byPerson(blocks));
    await db.query(`INSERT INTO mutes (user_id, muted_id) SELECT a, b FROM (${oneWay}) f`, byPerson(mutes));
  };

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
    // social-graph's own rows behind the events: blocked_users, and the muter's side of the friendship.
    await db.query(`INSERT INTO blocked_users (id, blocker_id, blocked_id, created_at) SELECT gen_random_uuid(), a, b, now() FROM (${oneWay}) f`, byPerson(blocks));
    await db.query(`UPDATE friendships f SET is_muted = true FROM (${oneWay}) m WHERE f.user_id = m.a AND f.friend_id = m.b`, byPerson(mutes));
  });
  await inDatabase(databases.media, async (db) => {
    await db.query(`INSERT INTO users (id, is_profile_private, updated_at) SELECT id, private, joined FROM (${people}) p`);
    await graph(db);
  });
  await inDatabase(databases.messaging, async (db) => {
    await db.query(
      `INSERT INTO users (id, username, display_name, allow_direct_messages, token_version, updated_at)
       SELECT id, username, display_name, true, 0, joined FROM (${people}) p`,
    );
    await graph(db);
  });
  await inDatabase(databases.places, graph);
  // The notifications service's people (with the address its mails go to) and graph: without
  // them every seeded actor is unknown there, so no like or comment of theirs would show.
  await inDatabase(databases.notifications, async (db) => {
    await db.query(
      `INSERT INTO users (id, username, display_name, email, is_profile_private, allow_direct_messages, show_online_status, token_version, created_at, updated_at)
       SELECT id, username, display_name, 'bench' || i || '@hoptrack.bench', private, true, true, 0, joined, joined FROM (${people}) p`,
    );
    await graph(db);
  });
  await inDatabase(databases.sessions, async (db) => {
    await db.query('SELECT setseed(0.42)');
    await db.query(`INSERT INTO users (id, username, display_name, is_profile_private, updated_at) SELECT id, username, display_name, private, joined FROM (${people}) p`);
    await graph(db);
    // Authors are skewed too: low numbers (the celebrity among them) log more. Spread over the last 90 days.
    // One in four (by a hash of its number) has a photo stored as the product stores one: the
    // author's key under uploads/, which the feed signs for each viewer (the file itself is not needed to read it).
    await db.query(
      `WITH drawn AS MATERIALIZED (
         SELECT s, ${SQL_USER(`1 + floor(${n} * power(random(), 2))::int`)} AS user_id, t
         FROM generate_series(1, ${scale.sessions}) s, LATERAL (SELECT now() - random() * interval '90 days' AS t) c
       )
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
      [TITLES, STYLES, FILES_PREFIX],
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
  const photos = Number((await facts.query<{ n: string }>('SELECT count(*) AS n FROM beer_sessions WHERE photo IS NOT NULL')).rows[0]?.n ?? 0);
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
  const [heavyReader, heavyReaderFriends] = byDegree[byDegree.length - 1] ?? [2, 0];
  return {
    scale,
    friendships: pairs.length,
    celebrity: 1,
    reader,
    readerFriends,
    heavyReader,
    heavyReaderFriends,
    photos,
    blocks: blocks.length,
    mutes: mutes.length,
    seconds: (performance.now() - started) / 1000,
  };
}
