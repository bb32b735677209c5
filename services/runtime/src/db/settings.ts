import pg from 'pg';
import type { Logger } from 'pino';

/**
 * Settings every service's database runs with. Set on the database itself
 * (`ALTER DATABASE … SET`), so every new connection has them, through
 * PgBouncer too (which refuses them as startup options), and checked at
 * every start, so a copy (`CREATE DATABASE … TEMPLATE`) or a restore, which
 * do not carry them, gets them back.
 *
 * - `jit = off`: Postgres compiles a statement to machine code once its
 *   estimated cost passes `jit_above_cost`; a timeline rebuild (each
 *   followed author's newest sessions) passed it and spent 70 ms of its
 *   400 ms compiling, every time, for a statement that ran in 60 ms without
 *   (issue 41, the 100,000-person set). Our statements are short reads by
 *   key; none gains from it.
 */
export const DATABASE_SETTINGS: Readonly<Record<string, string>> = { jit: 'off' };

export async function applyDatabaseSettings(connectionString: string, logger: Logger): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const [row] = (
      await client.query<{ db: string; config: string[] | null }>(
        `SELECT current_database() AS db,
           (SELECT s.setconfig FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase WHERE d.datname = current_database() AND s.setrole = 0) AS config`,
      )
    ).rows;
    if (!row) return;
    for (const [name, value] of Object.entries(DATABASE_SETTINGS)) {
      if (row.config?.includes(`${name}=${value}`)) continue;
      // Names and values are the constants above; the database's name is quoted.
      await client.query(`ALTER DATABASE ${client.escapeIdentifier(row.db)} SET ${name} = ${value}`);
      logger.info({ database: row.db, [name]: value }, 'database setting applied');
    }
  } catch (err) {
    // Not its owner (a database an operator made): the service runs as before, and says so.
    logger.warn({ err, settings: DATABASE_SETTINGS }, 'could not apply the database settings; set them with ALTER DATABASE');
  } finally {
    await client.end();
  }
}
