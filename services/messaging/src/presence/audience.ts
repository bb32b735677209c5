import { audienceSql, identifier, queryRows, sql, uuid, type Sql, type SqlClient } from '@hoptrack/runtime';

/**
 * Who may see whose presence (spec 6: "Show online status controls
 * visibility to friends"), from the audience tables messaging keeps:
 * friends only, only while the person's Show Online Status is on, never
 * across a block. One condition for both directions of the question below.
 */
const maySee = (viewer: Sql, owner: Sql) =>
  sql`(p."show_online_status" AND ${audienceSql.friends(viewer, owner)} AND NOT ${audienceSql.blockedBetween(viewer, owner)})`;

/** Of `ownerIds`, those whose presence `viewerId` may see (the viewer always sees their own). */
export async function visiblePresence(db: SqlClient, viewerId: string, ownerIds: readonly string[]): Promise<Set<string>> {
  if (ownerIds.length === 0) return new Set();
  const rows = await queryRows<Array<{ id: string }>>(
    db,
    sql`SELECT o.id::text AS "id" FROM unnest(${[...ownerIds]}::uuid[]) AS o(id) JOIN "users" p ON p."id" = o.id
      WHERE o.id = ${uuid(viewerId)} OR ${maySee(uuid(viewerId), identifier('o.id'))}`,
  );
  const visible = new Set(rows.map((row) => row.id));
  if (ownerIds.includes(viewerId)) visible.add(viewerId);
  return visible;
}

/**
 * Everyone who may see `ownerId`'s presence: whom a change of it is pushed to
 * (none while the switch is off). `ignoreSwitch`: the caller holds a newer
 * snapshot of the switch than the table may have applied yet.
 */
export async function presenceAudience(db: SqlClient, ownerId: string, options: { ignoreSwitch?: boolean } = {}): Promise<string[]> {
  const [owner, follower] = [uuid(ownerId), identifier('f."follower_id"')];
  const rows = await queryRows<Array<{ id: string }>>(
    db,
    sql`SELECT f."follower_id"::text AS "id" FROM "follows" f JOIN "users" p ON p."id" = ${owner}
      WHERE f."followee_id" = ${owner} AND (${options.ignoreSwitch ? sql`true` : sql`p."show_online_status"`})
        AND ${audienceSql.friends(follower, owner)} AND NOT ${audienceSql.blockedBetween(follower, owner)}`,
  );
  return rows.map((row) => row.id);
}
