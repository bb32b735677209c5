import { audienceSql, escapeLike, identifier, queryRows, sql, uuid, type BlocksSource, type Sql } from '@hoptrack/runtime';
import type { Db, User } from '../db';

/**
 * Queries across friendships, blocks and the user read model. Every list
 * takes the viewer, and drops users in a block with the viewer either way:
 * a block hides two people from each other everywhere, not only on profiles.
 */
export interface Page {
  limit: number;
  offset: number;
}

const FOLLOW_STATUSES = ['pending', 'accepted'];

/** This service's own blocks, the source the other services' audience tables are kept from. */
const BLOCKED_USERS: BlocksSource = { table: 'blocked_users', blocker: 'blocker_id', blocked: 'blocked_id' };

/** SQL condition: no block either way between the viewer and `column` (the audience module's rule). */
const notBlockedWithViewer = (viewerId: string, column: string): Sql =>
  sql`NOT ${audienceSql.blockedBetween(uuid(viewerId), identifier(column), BLOCKED_USERS)}`;

interface UserRow {
  id: string;
  email: string;
  username: string;
  display_name: string;
  bio: string | null;
  avatar: string | null;
  profile_picture: string | null;
  is_profile_private: boolean;
  allow_direct_messages: boolean;
  show_online_status: boolean;
  show_email_to_friends: boolean;
  token_version: number;
  created_at: Date;
  updated_at: Date;
  version: number;
  total: bigint;
}

function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    displayName: row.display_name,
    bio: row.bio,
    avatar: row.avatar,
    profilePicture: row.profile_picture,
    isProfilePrivate: row.is_profile_private,
    allowDirectMessages: row.allow_direct_messages,
    showOnlineStatus: row.show_online_status,
    showEmailToFriends: row.show_email_to_friends,
    tokenVersion: row.token_version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
  };
}


export const graphRepository = {
  /** Case-insensitive substring search on username and display name; prefix matches first. */
  async search(db: Db, viewerId: string, q: string, page: Page): Promise<User[]> {
    const pattern = `%${escapeLike(q)}%`;
    const prefix = `${escapeLike(q)}%`;
    const rows = await queryRows<UserRow[]>(
      db,
      sql`SELECT u.*, 0::bigint AS total FROM users u
       WHERE u.id <> ${uuid(viewerId)} AND (u.username ILIKE ${pattern} OR u.display_name ILIKE ${pattern}) AND ${notBlockedWithViewer(viewerId, 'u.id')}
       ORDER BY (u.username ILIKE ${prefix} OR u.display_name ILIKE ${prefix}) DESC, lower(u.display_name), u.id
       LIMIT ${page.limit} OFFSET ${page.offset}`,
    );
    return rows.map(toUser);
  },

  /**
   * People the viewer might follow (issue 40: an empty first feed offers
   * some): friends of the viewer's friends, most shared friends first, then
   * the public profiles with the most sessions since `activeSince`. Never the
   * viewer, anyone already a friend or in a request with them either way, or
   * anyone in a block with them; a private profile only through a friend.
   */
  async suggestions(db: Db, viewerId: string, activeSince: Date, limit: number): Promise<User[]> {
    const viewer = uuid(viewerId);
    const rows = await queryRows<UserRow[]>(
      db,
      sql`SELECT u.*, 0::bigint AS total FROM users u
       CROSS JOIN LATERAL (
         SELECT count(*) AS n FROM friendships mine JOIN friendships theirs ON theirs.user_id = mine.friend_id AND theirs.status = 'accepted'
          WHERE mine.user_id = ${viewer} AND mine.status = 'accepted' AND theirs.friend_id = u.id
       ) mutual
       CROSS JOIN LATERAL (
         SELECT count(*) AS n FROM session_facts s WHERE s.user_id = u.id AND s.created_at >= ${activeSince}::timestamptz AND ${audienceSql.publicProfile(identifier('u.id'))}
       ) active
       WHERE u.id <> ${viewer} AND ${notBlockedWithViewer(viewerId, 'u.id')}
         AND NOT EXISTS (SELECT 1 FROM friendships f WHERE (f.user_id = ${viewer} AND f.friend_id = u.id) OR (f.user_id = u.id AND f.friend_id = ${viewer}))
         AND (mutual.n > 0 OR active.n > 0)
       ORDER BY mutual.n DESC, active.n DESC, u.id
       LIMIT ${limit}`,
    );
    return rows.map(toUser);
  },

  /** Who follows `userId`: its friends and everyone with a pending request to it. */
  async followers(db: Db, viewerId: string, userId: string, page: Page): Promise<{ users: User[]; total: number }> {
    return listFollow(db, viewerId, userId, 'friend_id', 'user_id', page);
  },

  /** Whom `userId` follows: its friends and everyone it sent a pending request to. */
  async following(db: Db, viewerId: string, userId: string, page: Page): Promise<{ users: User[]; total: number }> {
    return listFollow(db, viewerId, userId, 'user_id', 'friend_id', page);
  },

  /**
   * `userId`'s counts as `viewerId` may see them: people in a block with the
   * viewer are left out, as from the lists under these headers (a count one
   * higher than its list would tell the viewer someone is hidden from them).
   */
  async followCounts(db: Db, viewerId: string, userId: string): Promise<{ followers: number; following: number; friends: number }> {
    const user = uuid(userId);
    const [row] = await queryRows<Array<{ followers: bigint; following: bigint; friends: bigint }>>(
      db,
      sql`SELECT
         (SELECT count(*) FROM friendships f WHERE f.friend_id = ${user} AND f.status = ANY(${FOLLOW_STATUSES}) AND ${notBlockedWithViewer(viewerId, 'f.user_id')}) AS followers,
         (SELECT count(*) FROM friendships f WHERE f.user_id = ${user} AND f.status = ANY(${FOLLOW_STATUSES}) AND ${notBlockedWithViewer(viewerId, 'f.friend_id')}) AS following,
         (SELECT count(*) FROM friendships f WHERE f.user_id = ${user} AND f.status = 'accepted' AND ${notBlockedWithViewer(viewerId, 'f.friend_id')}) AS friends`,
    );
    return { followers: Number(row?.followers ?? 0), following: Number(row?.following ?? 0), friends: Number(row?.friends ?? 0) };
  },

  /** Friends the viewer shares with each target, for many targets in one query. */
  async mutualFriends(db: Db, viewerId: string, targetIds: string[]): Promise<Map<string, number>> {
    if (targetIds.length === 0) return new Map();
    const rows = await queryRows<Array<{ target: string; n: bigint }>>(
      db,
      sql`SELECT theirs.user_id AS target, count(*) AS n
       FROM friendships mine JOIN friendships theirs ON theirs.friend_id = mine.friend_id
       WHERE mine.user_id = ${viewerId}::uuid AND mine.status = 'accepted'
         AND theirs.user_id = ANY(${targetIds}::uuid[]) AND theirs.status = 'accepted'
       GROUP BY theirs.user_id`,
    );
    return new Map(rows.map((r) => [r.target, Number(r.n)]));
  },

  async sessionTotals(db: Db, userIds: string[]): Promise<Map<string, { sessions: number; minutes: number }>> {
    if (userIds.length === 0) return new Map();
    const rows = await queryRows<Array<{ user_id: string; sessions: bigint; minutes: bigint }>>(
      db,
      sql`SELECT user_id, count(*) AS sessions, coalesce(sum(duration_minutes), 0) AS minutes
       FROM session_facts WHERE user_id = ANY(${userIds}::uuid[]) GROUP BY user_id`,
    );
    return new Map(rows.map((r) => [r.user_id, { sessions: Number(r.sessions), minutes: Number(r.minutes) }]));
  },

  async beersSince(db: Db, userId: string, since: Date): Promise<number> {
    const [row] = await queryRows<Array<{ beers: bigint }>>(
      db,
      sql`SELECT coalesce(sum(beer_count), 0) AS beers FROM session_facts WHERE user_id = ${userId}::uuid AND created_at >= ${since}`,
    );
    return Number(row?.beers ?? 0);
  },
};

async function listFollow(
  db: Db,
  viewerId: string,
  userId: string,
  anchor: 'user_id' | 'friend_id',
  other: 'user_id' | 'friend_id',
  page: Page,
): Promise<{ users: User[]; total: number }> {
  const from = sql`FROM friendships f JOIN users u ON u.id = ${identifier(`f.${other}`)}
     WHERE ${identifier(`f.${anchor}`)} = ${uuid(userId)} AND f.status = ANY(${FOLLOW_STATUSES}) AND ${notBlockedWithViewer(viewerId, 'u.id')}`;
  // The total is counted on its own: a window count vanishes with the rows on a page past the end.
  const [rows, [count]] = await Promise.all([
    queryRows<UserRow[]>(db, sql`SELECT u.*, 0::bigint AS total ${from} ORDER BY lower(u.display_name), u.id LIMIT ${page.limit} OFFSET ${page.offset}`),
    queryRows<Array<{ total: bigint }>>(db, sql`SELECT count(*) AS total ${from}`),
  ]);
  return { users: rows.map(toUser), total: Number(count?.total ?? 0) };
}
