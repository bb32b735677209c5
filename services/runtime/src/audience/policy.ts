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

/** A table of blocks: who blocked whom. */
export interface BlocksSource {
  table: string;
  blocker: string;
  blocked: string;
}
const AUDIENCE_BLOCKS: BlocksSource = { table: '"blocks"', blocker: '"blocker_id"', blocked: '"blocked_id"' };

const IDENTIFIER = /^(\$\d+(::uuid)?|"?[a-z_][a-z0-9_]*"?(\."?[a-z_][a-z0-9_]*"?)?)$/;

/** Column expressions are spliced into SQL: only parameters ($1, $2::uuid) and (qualified) column names are taken. */
function column(expression: string): string {
  if (!IDENTIFIER.test(expression)) throw new Error(`audience SQL: not a column or parameter: ${expression}`);
  return expression;
}

/**
 * SQL conditions of the same rules, for lists, feeds and counts that filter in
 * the database. Each takes the column (or parameter) expressions that hold the
 * two people's ids, e.g. `audienceSql.canSee('$1::uuid', 's.user_id')`, and
 * uses aliases of its own, so it relies on no alias or parameter of the query
 * around it.
 */
export const audienceSql = {
  /**
   * Either of the two blocked the other. `source` names another table of the
   * same meaning: social-graph, the source of truth, keeps its own (blocked_users).
   */
  blockedBetween(a: string, b: string, source: BlocksSource = AUDIENCE_BLOCKS): string {
    const [x, y] = [column(a), column(b)];
    const [table, blocker, blocked] = [column(source.table), column(source.blocker), column(source.blocked)];
    return `EXISTS (SELECT 1 FROM ${table} audience_b WHERE (audience_b.${blocker} = ${x} AND audience_b.${blocked} = ${y}) OR (audience_b.${blocker} = ${y} AND audience_b.${blocked} = ${x}))`;
  },
  /**
   * Everyone the viewer blocked or who blocked the viewer: a subquery of one
   * column, `id`. For filtering the few rows of such people out of many
   * (a page's likes and comments) by index, instead of testing every row.
   */
  blockedPeople(viewer: string, source: BlocksSource = AUDIENCE_BLOCKS): string {
    const v = column(viewer);
    const [table, blocker, blocked] = [column(source.table), column(source.blocker), column(source.blocked)];
    return `SELECT audience_b.${blocked} AS id FROM ${table} audience_b WHERE audience_b.${blocker} = ${v}
      UNION SELECT audience_b.${blocker} FROM ${table} audience_b WHERE audience_b.${blocked} = ${v}`;
  },
  /**
   * The viewer's friends that neither blocked the other: a subquery of one
   * column, `id`, read by the viewer's index. For joining a viewer's few
   * friends into a table of many people (the friends in a challenge), rather
   * than testing every row of it.
   */
  friendsOf(viewer: string): string {
    const v = column(viewer);
    return `SELECT audience_f."followee_id" AS id FROM "follows" audience_f
      WHERE audience_f."follower_id" = ${v} AND audience_f."is_friend" AND NOT ${audienceSql.blockedBetween(v, 'audience_f.followee_id')}`;
  },
  /** The two are friends. */
  friends(viewer: string, owner: string): string {
    return `EXISTS (SELECT 1 FROM "follows" audience_f WHERE audience_f."follower_id" = ${column(viewer)} AND audience_f."followee_id" = ${column(owner)} AND audience_f."is_friend")`;
  },
  /** The viewer follows the owner (a pending request, or a friendship). */
  follows(viewer: string, owner: string): string {
    return `EXISTS (SELECT 1 FROM "follows" audience_f WHERE audience_f."follower_id" = ${column(viewer)} AND audience_f."followee_id" = ${column(owner)})`;
  },
  /** canSee(access(viewer, owner)), as a condition. */
  canSee(viewer: string, owner: string): string {
    const [v, o] = [column(viewer), column(owner)];
    return `(${o} = ${v} OR (NOT ${audienceSql.blockedBetween(v, o)}
      AND EXISTS (SELECT 1 FROM "users" audience_p WHERE audience_p."id" = ${o} AND (NOT audience_p."is_profile_private" OR ${audienceSql.friends(v, o)}))))`;
  },
  /** The viewer muted the owner: their sessions stay out of the viewer's feed (still visible on the profile). */
  muted(viewer: string, owner: string): string {
    return `EXISTS (SELECT 1 FROM "mutes" audience_m WHERE audience_m."user_id" = ${column(viewer)} AND audience_m."muted_id" = ${column(owner)})`;
  },
};

/** The viewer's access to each owner, in one query. */
export async function accessToMany(db: SqlClient, viewerId: string, ownerIds: readonly string[]): Promise<Map<string, Access>> {
  const unique = [...new Set(ownerIds)];
  const result = new Map<string, Access>();
  if (unique.length === 0) return result;
  const rows = await db.$queryRawUnsafe<Array<{ id: string; blocked: boolean; private: boolean | null; friend: boolean }>>(
    `SELECT o.id::text AS "id", ${audienceSql.blockedBetween('$1::uuid', 'o.id')} AS "blocked",
            p."is_profile_private" AS "private", ${audienceSql.friends('$1::uuid', 'o.id')} AS "friend"
       FROM unnest($2::uuid[]) AS o(id) LEFT JOIN "users" p ON p."id" = o.id`,
    viewerId,
    unique,
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
  const [row] = await db.$queryRawUnsafe<Array<{ blocked: boolean }>>(`SELECT ${audienceSql.blockedBetween('$1::uuid', '$2::uuid')} AS "blocked"`, a, b);
  return row?.blocked ?? false;
}
