import type { GraphSnapshotPage, GraphSnapshotRequest } from '@hoptrack/proto';
import { identifier, queryRows, sql, uuid, type Sql } from '@hoptrack/runtime';
import type { Db } from '../db';

/**
 * The graph as the other services' read models hold it, read from this
 * service's tables (see rebuildGraph in the runtime's audience module):
 * `follows` are the friendship rows (a pending request is its sender's row;
 * a friendship has a row each way), `blocks` the blocked_users rows, `mutes`
 * the friendship rows marked muted. Keyset pages in pair order, on the
 * tables' unique (user, friend) and (blocker, blocked) indexes.
 */
const SOURCES: Record<GraphSnapshotRequest['kind'], { table: Sql; from: Sql; to: Sql; friend: Sql; where: Sql }> = {
  follows: { table: identifier('friendships'), from: identifier('user_id'), to: identifier('friend_id'), friend: sql`status = 'accepted'`, where: sql`status IN ('pending', 'accepted')` },
  blocks: { table: identifier('blocked_users'), from: identifier('blocker_id'), to: identifier('blocked_id'), friend: sql`false`, where: sql`true` },
  mutes: { table: identifier('friendships'), from: identifier('user_id'), to: identifier('friend_id'), friend: sql`false`, where: sql`is_muted` },
};

export async function graphSnapshotPage(db: Db, request: GraphSnapshotRequest): Promise<GraphSnapshotPage> {
  const { table, from, to, friend, where } = SOURCES[request.kind];
  const [afterFrom, afterTo] = request.after?.split('/') ?? [];
  const after = afterFrom && afterTo ? sql`AND (${from}, ${to}) > (${uuid(afterFrom)}, ${uuid(afterTo)})` : sql``;
  const rows = await queryRows<Array<{ a: string; b: string; f: boolean }>>(
    db,
    sql`SELECT ${from}::text AS a, ${to}::text AS b, (${friend}) AS f FROM ${table} WHERE ${where} ${after} ORDER BY ${from}, ${to} LIMIT ${request.limit}`,
  );
  const last = rows.at(-1);
  return { edges: rows.map((r) => [r.a, r.b, r.f]), next: rows.length === request.limit && last ? `${last.a}/${last.b}` : null };
}
