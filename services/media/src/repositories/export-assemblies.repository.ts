import { executeSql, queryRows, sql, type SqlClient } from '@hoptrack/runtime';
import type { Db } from '../db';

/** An export's assembly as the assembler reads it. */
export interface AssemblyRow {
  user_id: string;
  services: string[];
  status: string;
}

/** All reads and writes of the export_assemblies table (the exports being assembled, issue 24). */
export const exportAssembliesRepository = {
  /** The ids of `userId`'s exports still collecting their parts. */
  async collectingIdsOf(db: SqlClient, userId: string): Promise<string[]> {
    const rows = await queryRows<Array<{ export_id: string }>>(
      db,
      sql`SELECT "export_id"::text FROM "export_assemblies" WHERE "user_id" = ${userId}::uuid AND "status" = 'collecting'`,
    );
    return rows.map((row) => row.export_id);
  },

  /**
   * Adds `service` to the export's row, making the row on the first
   * contribution, and answers the row as it is then. A duplicate leaves the
   * row untouched (neither statement changes it), without waiting for an
   * assembly holding it.
   */
  async recordContribution(db: Db, exportId: string, userId: string, service: string): Promise<AssemblyRow | undefined> {
    await executeSql(
      db,
      sql`INSERT INTO "export_assemblies" ("export_id", "user_id", "services") VALUES (${exportId}::uuid, ${userId}::uuid, ARRAY[${service}]::text[]) ON CONFLICT ("export_id") DO NOTHING`,
    );
    await executeSql(
      db,
      sql`UPDATE "export_assemblies" SET "services" = array_append("services", ${service}), "updated_at" = now()
          WHERE "export_id" = ${exportId}::uuid AND "status" = 'collecting' AND NOT (${service} = ANY("services"))`,
    );
    const rows = await queryRows<AssemblyRow[]>(
      db,
      sql`SELECT "user_id"::text AS "user_id", "services", "status" FROM "export_assemblies" WHERE "export_id" = ${exportId}::uuid`,
    );
    return rows[0];
  },

  /**
   * Takes the export's row for building its zip, FOR UPDATE SKIP LOCKED: false
   * when it is built, or being built by someone else (a second replica, a
   * redelivery), who holds it until their transaction ends.
   */
  async takeForAssembly(db: Db, exportId: string): Promise<boolean> {
    const taken = await queryRows<Array<{ export_id: string }>>(
      db,
      sql`SELECT "export_id"::text FROM "export_assemblies" WHERE "export_id" = ${exportId}::uuid AND "status" = 'collecting' FOR UPDATE SKIP LOCKED`,
    );
    return taken.length > 0;
  },

  markDone(db: Db, exportId: string, key: string, size: number, expiresAt: Date): Promise<number> {
    return executeSql(
      db,
      sql`UPDATE "export_assemblies" SET "status" = 'done', "key" = ${key}, "size" = ${size}, "assembled_at" = now(), "updated_at" = now(), "expires_at" = ${expiresAt}
          WHERE "export_id" = ${exportId}::uuid`,
    );
  },

  /** The person's other built zips end at `at`: a newer export replaces them (issue 39). */
  replaceEarlier(db: Db, userId: string, exportId: string, at: Date): Promise<number> {
    return executeSql(
      db,
      sql`UPDATE "export_assemblies" SET "expires_at" = ${at}, "updated_at" = now()
          WHERE "user_id" = ${userId}::uuid AND "export_id" <> ${exportId}::uuid AND "status" = 'done' AND ("expires_at" IS NULL OR "expires_at" > ${at})`,
    );
  },

  /** Built exports whose zip is past its time at `now` (of one person, or anyone's), oldest first, at most `limit`. */
  expired(db: SqlClient, now: Date, limit: number, userId?: string): Promise<Array<{ export_id: string; key: string }>> {
    return queryRows(
      db,
      sql`SELECT "export_id"::text, "key" FROM "export_assemblies"
          WHERE "status" = 'done' AND "expires_at" <= ${now} ${userId ? sql`AND "user_id" = ${userId}::uuid` : sql``}
          ORDER BY "expires_at" LIMIT ${limit}`,
    );
  },

  /** Forgets the exports whose zips were deleted. */
  deleteByIds(db: SqlClient, exportIds: readonly string[]): Promise<number> {
    return executeSql(db, sql`DELETE FROM "export_assemblies" WHERE "export_id" = ANY(${[...exportIds]}::uuid[]) AND "status" = 'done'`);
  },

  deleteOwnedBy(db: SqlClient, userId: string): Promise<number> {
    return executeSql(db, sql`DELETE FROM export_assemblies WHERE user_id = ${userId}::uuid`);
  },

  /** Which of `ids` are exports (collecting or done), with their owners: one query for a page of the orphan sweep. */
  ownersAmong(db: SqlClient, ids: readonly string[]): Promise<Array<{ id: string; user_id: string }>> {
    return queryRows(db, sql`SELECT export_id::text AS id, user_id::text FROM export_assemblies WHERE export_id = ANY(${[...ids]}::uuid[])`);
  },
};
