import { audienceSql, queryRows, sql, uuid, type SqlClient } from '@hoptrack/runtime';

/** What the audience tables (the runtime's read model of people and the graph) say about two people. */
export const audienceRepository = {
  /** Whether the two are friends and neither blocked the other. */
  async areFriendsUnblocked(db: SqlClient, aId: string, bId: string): Promise<boolean> {
    const [a, b] = [uuid(aId), uuid(bId)];
    const [row] = await queryRows<Array<{ ok: boolean }>>(db, sql`SELECT ${audienceSql.friends(a, b)} AND NOT ${audienceSql.blockedBetween(a, b)} AS ok`);
    return row?.ok === true;
  },
};
