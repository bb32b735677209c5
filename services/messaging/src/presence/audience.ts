import { audienceSql, type SqlClient } from '@hoptrack/runtime';

/**
 * Who may see whose presence (spec 6: "Show online status controls
 * visibility to friends"), from the audience tables messaging keeps:
 * friends only, only while the person's Show Online Status is on, never
 * across a block. One condition for both directions of the question below.
 */
const MAY_SEE = (viewer: string, owner: string) =>
  `(p."show_online_status" AND ${audienceSql.friends(viewer, owner)} AND NOT ${audienceSql.blockedBetween(viewer, owner)})`;

/** Of `ownerIds`, those whose presence `viewerId` may see (the viewer always sees their own). */
export async function visiblePresence(db: SqlClient, viewerId: string, ownerIds: readonly string[]): Promise<Set<string>> {
  if (ownerIds.length === 0) return new Set();
  const rows = await db.$queryRawUnsafe<Array<{ id: string }>>(
    `SELECT o.id::text AS "id" FROM unnest($2::uuid[]) AS o(id) JOIN "users" p ON p."id" = o.id
      WHERE o.id = $1::uuid OR ${MAY_SEE('$1::uuid', 'o.id')}`,
    viewerId,
    [...ownerIds],
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
  const rows = await db.$queryRawUnsafe<Array<{ id: string }>>(
    `SELECT f."follower_id"::text AS "id" FROM "follows" f JOIN "users" p ON p."id" = $1::uuid
      WHERE f."followee_id" = $1::uuid AND (${options.ignoreSwitch ? 'true' : 'p."show_online_status"'})
        AND ${audienceSql.friends('f."follower_id"', '$1::uuid')} AND NOT ${audienceSql.blockedBetween('f."follower_id"', '$1::uuid')}`,
    ownerId,
  );
  return rows.map((row) => row.id);
}
