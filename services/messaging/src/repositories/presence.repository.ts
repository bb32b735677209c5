import { audienceSql, identifier, queryRows, sql, uuid, type Sql, type SqlClient } from '@hoptrack/runtime';

/**
 * Who may see whose presence (spec 6: "Show online status controls
 * visibility to friends"), from the audience tables messaging keeps:
 * friends only, only while the person's Show Online Status is on, never
 * across a block. One condition for both directions of the question below.
 */
const maySee = (viewer: Sql, owner: Sql) =>
  sql`(p."show_online_status" AND ${audienceSql.friends(viewer, owner)} AND NOT ${audienceSql.blockedBetween(viewer, owner)})`;

/** A person's Show Online Status as one snapshot of them had it. */
export interface OnlineSwitch {
  id: string;
  shown: boolean;
  /** auth's version of the account (0: a snapshot from before versions). */
  version: number;
  updatedAt: Date;
}

/** Presence's reads of the audience tables (people, follows, blocks) and of the erased people. */
export const presenceRepository = {
  /** Of `ownerIds`, the viewer and those whose presence the viewer may see (people the read model knows only). */
  async visibleOwners(db: SqlClient, viewerId: string, ownerIds: readonly string[]): Promise<string[]> {
    const rows = await queryRows<Array<{ id: string }>>(
      db,
      sql`SELECT o.id::text AS "id" FROM unnest(${[...ownerIds]}::uuid[]) AS o(id) JOIN "users" p ON p."id" = o.id
      WHERE o.id = ${uuid(viewerId)} OR ${maySee(uuid(viewerId), identifier('o.id'))}`,
    );
    return rows.map((row) => row.id);
  },

  /**
   * Everyone who may see `ownerId`'s presence (none while the switch is off).
   * `ignoreSwitch`: the caller holds a newer snapshot of the switch than the
   * table may have applied yet.
   */
  async audienceOf(db: SqlClient, ownerId: string, options: { ignoreSwitch?: boolean } = {}): Promise<string[]> {
    const [owner, follower] = [uuid(ownerId), identifier('f."follower_id"')];
    const rows = await queryRows<Array<{ id: string }>>(
      db,
      sql`SELECT f."follower_id"::text AS "id" FROM "follows" f JOIN "users" p ON p."id" = ${owner}
      WHERE f."followee_id" = ${owner} AND (${options.ignoreSwitch ? sql`true` : sql`p."show_online_status"`})
        AND ${audienceSql.friends(follower, owner)} AND NOT ${audienceSql.blockedBetween(follower, owner)}`,
    );
    return rows.map((row) => row.id);
  },

  /**
   * The Show Online Status of those of `userIds` the people table knows, in
   * one query, with what orders the snapshot it holds against one heard since
   * (its version, then its updatedAt: the runtime's newerSnapshot).
   */
  async switchesOf(db: SqlClient, userIds: readonly string[]): Promise<OnlineSwitch[]> {
    return queryRows<OnlineSwitch[]>(
      db,
      sql`SELECT "id"::text AS "id", "show_online_status" AS "shown", "version", "updated_at" AS "updatedAt" FROM "users" WHERE "id" = ANY(${[...userIds]}::uuid[])`,
    );
  },

  /** Of the given erased-people hashes (the runtime's erasedHash), those recorded as erased. */
  async erasedAmong(db: SqlClient, idHashes: string[]): Promise<string[]> {
    const rows = await queryRows<Array<{ id_hash: string }>>(db, sql`SELECT "id_hash" FROM "erased_people" WHERE "id_hash" = ANY(${idHashes}::text[])`);
    return rows.map((row) => row.id_hash);
  },
};
