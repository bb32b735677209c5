import { queryRows, sql, type SqlClient } from '@hoptrack/runtime';

/** The people read model (the audience's `users` table): actors' names and pictures, and the address a mail goes to. */

export interface PersonRow {
  id: string;
  username: string;
  display_name: string;
  profile_picture: string | null;
  avatar: string | null;
}

export const peopleRepository = {
  findByIds(db: SqlClient, ids: readonly string[]): Promise<PersonRow[]> {
    return queryRows<PersonRow[]>(
      db,
      sql`SELECT id::text AS "id", username, display_name, profile_picture, avatar FROM "users" WHERE id = ANY(${ids}::uuid[])`,
    );
  },

  /** The person's e-mail address; null when none is known (or the person is not). */
  async findEmail(db: SqlClient, userId: string): Promise<string | null> {
    const [person] = await queryRows<Array<{ email: string | null }>>(db, sql`SELECT email FROM "users" WHERE id = ${userId}::uuid`);
    return person?.email ?? null;
  },
};
