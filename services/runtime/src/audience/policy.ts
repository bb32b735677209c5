import { identifier, queryRows, sql, uuid, type Sql } from '../db/fragment';
import type { SqlClient } from '../db/sql';

/**
 * How a viewer stands towards an owner (of a profile, a session, an album):
 *
 * - `self`    the viewer is the owner;
 * - `blocked` either blocked the other: nothing of one shows to the other, anywhere;
 * - `unknown` the audience tables have not heard of the owner yet (registered
 *             a moment ago, their user.registered event not applied here yet);
 * - `friend`  an accepted friendship;
 * - `visible` a public profile;
 * - `private` a private profile, and the viewer is not a friend.
 */
export type Access = 'self' | 'friend' | 'visible' | 'private' | 'blocked' | 'unknown';

/** What decides an access, as each source of truth knows it. */
export interface AccessFacts {
  self: boolean;
  blocked: boolean;
  /** null: the owner is not known (yet). */
  isProfilePrivate: boolean | null;
  friend: boolean;
}

/** The one decision; services and social-graph (which keeps the facts in its own tables) both call it. */
export function decideAccess(facts: AccessFacts): Access {
  if (facts.self) return 'self';
  if (facts.blocked) return 'blocked';
  if (facts.isProfilePrivate === null) return 'unknown';
  if (facts.friend) return 'friend';
  return facts.isProfilePrivate ? 'private' : 'visible';
}

/**
 * Whether the viewer sees the owner's things. An owner not heard of yet counts
 * as private, decided here once: privacy errs on the side of hiding, and the
 * wait is the few milliseconds until their registration is applied.
 */
export function canSee(access: Access): boolean {
  return access === 'self' || access === 'friend' || access === 'visible';
}

/** A table of blocks: who blocked whom (identifiers). */
export interface BlocksSource {
  table: string;
  blocker: string;
  blocked: string;
}
const AUDIENCE_BLOCKS: BlocksSource = { table: '"blocks"', blocker: '"blocker_id"', blocked: '"blocked_id"' };

/**
 * SQL conditions of the same rules, for lists, feeds and counts that filter in
 * the database. Each takes the two people's ids as fragments — a column
 * (`identifier('s.user_id')`) or a value (`uuid(viewerId)`) — binds its own
 * parameters and uses aliases of its own, so it relies on no alias or
 * parameter position of the query around it:
 * `sql\`SELECT … WHERE ${audienceSql.canSee(uuid(viewerId), identifier('s.user_id'))}\``.
 */
export const audienceSql = {
  /**
   * Either of the two blocked the other. `source` names another table of the
   * same meaning: social-graph, the source of truth, keeps its own (blocked_users).
   */
  blockedBetween(a: Sql, b: Sql, source: BlocksSource = AUDIENCE_BLOCKS): Sql {
    const [table, blocker, blocked] = [identifier(source.table), identifier(source.blocker), identifier(source.blocked)];
    return sql`EXISTS (SELECT 1 FROM ${table} audience_b WHERE (audience_b.${blocker} = ${a} AND audience_b.${blocked} = ${b}) OR (audience_b.${blocker} = ${b} AND audience_b.${blocked} = ${a}))`;
  },
  /**
   * Everyone the viewer blocked or who blocked the viewer: a subquery of one
   * column, `id`. For filtering the few rows of such people out of many
   * (a page's likes and comments) by index, instead of testing every row.
   */
  blockedPeople(viewer: Sql, source: BlocksSource = AUDIENCE_BLOCKS): Sql {
    const [table, blocker, blocked] = [identifier(source.table), identifier(source.blocker), identifier(source.blocked)];
    return sql`SELECT audience_b.${blocked} AS id FROM ${table} audience_b WHERE audience_b.${blocker} = ${viewer}
      UNION SELECT audience_b.${blocker} FROM ${table} audience_b WHERE audience_b.${blocked} = ${viewer}`;
  },
  /**
   * The viewer's friends that neither blocked the other: a subquery of one
   * column, `id`, read by the viewer's index. For joining a viewer's few
   * friends into a table of many people (the friends in a challenge), rather
   * than testing every row of it.
   */
  friendsOf(viewer: Sql): Sql {
    return sql`SELECT audience_f."followee_id" AS id FROM "follows" audience_f
      WHERE audience_f."follower_id" = ${viewer} AND audience_f."is_friend" AND NOT ${audienceSql.blockedBetween(viewer, identifier('audience_f.followee_id'))}`;
  },
  /** The two are friends. */
  friends(viewer: Sql, owner: Sql): Sql {
    return sql`EXISTS (SELECT 1 FROM "follows" audience_f WHERE audience_f."follower_id" = ${viewer} AND audience_f."followee_id" = ${owner} AND audience_f."is_friend")`;
  },
  /** The viewer follows the owner (a pending request, or a friendship). */
  follows(viewer: Sql, owner: Sql): Sql {
    return sql`EXISTS (SELECT 1 FROM "follows" audience_f WHERE audience_f."follower_id" = ${viewer} AND audience_f."followee_id" = ${owner})`;
  },
  /** canSee(access(viewer, owner)), as a condition. */
  canSee(viewer: Sql, owner: Sql): Sql {
    return sql`(${owner} = ${viewer} OR (NOT ${audienceSql.blockedBetween(viewer, owner)}
      AND EXISTS (SELECT 1 FROM "users" audience_p WHERE audience_p."id" = ${owner} AND (NOT audience_p."is_profile_private" OR ${audienceSql.friends(viewer, owner)}))))`;
  },
  /** The owner's profile is public (anyone signed in may see it): who may be suggested to strangers. */
  publicProfile(owner: Sql): Sql {
    return sql`EXISTS (SELECT 1 FROM "users" audience_p WHERE audience_p."id" = ${owner} AND NOT audience_p."is_profile_private")`;
  },
  /** The viewer muted the owner: their sessions stay out of the viewer's feed (still visible on the profile). */
  muted(viewer: Sql, owner: Sql): Sql {
    return sql`EXISTS (SELECT 1 FROM "mutes" audience_m WHERE audience_m."user_id" = ${viewer} AND audience_m."muted_id" = ${owner})`;
  },
};

/** The viewer's access to each owner, in one query. */
export async function accessToMany(db: SqlClient, viewerId: string, ownerIds: readonly string[]): Promise<Map<string, Access>> {
  const unique = [...new Set(ownerIds)];
  const result = new Map<string, Access>();
  if (unique.length === 0) return result;
  const [viewer, owner] = [uuid(viewerId), identifier('o.id')];
  const rows = await queryRows<Array<{ id: string; blocked: boolean; private: boolean | null; friend: boolean }>>(
    db,
    sql`SELECT o.id::text AS "id", ${audienceSql.blockedBetween(viewer, owner)} AS "blocked",
               p."is_profile_private" AS "private", ${audienceSql.friends(viewer, owner)} AS "friend"
          FROM unnest(${unique}::uuid[]) AS o(id) LEFT JOIN "users" p ON p."id" = o.id`,
  );
  for (const row of rows) {
    result.set(row.id, decideAccess({ self: row.id === viewerId, blocked: row.blocked, isProfilePrivate: row.private, friend: row.friend }));
  }
  return result;
}

export async function accessOf(db: SqlClient, viewerId: string, ownerId: string): Promise<Access> {
  return (await accessToMany(db, viewerId, [ownerId])).get(ownerId) ?? 'unknown';
}

/** Either of the two blocked the other (messaging's rule: such a pair does not reach each other at all). */
export async function blockedBetween(db: SqlClient, a: string, b: string): Promise<boolean> {
  const [row] = await queryRows<Array<{ blocked: boolean }>>(db, sql`SELECT ${audienceSql.blockedBetween(uuid(a), uuid(b))} AS "blocked"`);
  return row?.blocked ?? false;
}
