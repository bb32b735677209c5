import { ensureDatabase, type Logger } from '@hoptrack/runtime';
import pg from 'pg';

/**
 * The erasure ledger (issue 38, item 7): the id of every account deleted, and
 * when, kept in a database of its own (ERASURE_LEDGER_URL) that backups leave
 * out and restores never overwrite. Restoring the services' databases from a
 * backup taken before a deletion brings the person back; `make restore`
 * erases again everyone the ledger names (services/auth/src/reapply-erasures.ts).
 *
 * It holds ids only — no address, no name: an id names nobody once the
 * account is gone, and it is what a re-erasure needs.
 */
export class ErasureLedger {
  private readonly pool: pg.Pool;

  constructor(
    private readonly url: string,
    logger: Pick<Logger, 'warn'>,
  ) {
    // One connection: a write per account deletion, a read per restore.
    this.pool = new pg.Pool({ connectionString: url, max: 1 });
    // An idle connection the server dropped (a restart, a failover) is an 'error' event on the pool:
    // unheard, it would end the process; the next query connects again.
    this.pool.on('error', (err) => logger.warn({ err }, 'erasure ledger connection lost'));
  }

  /** Creates the database and its one table when missing (every auth start; cheap when they exist). */
  async prepare(): Promise<void> {
    await ensureDatabase(this.url);
    // A table this small and this stable has no migration history: it is created as it is.
    await this.pool.query(
      `CREATE TABLE IF NOT EXISTS erasure_ledger (user_id uuid PRIMARY KEY, recorded_at timestamptz NOT NULL DEFAULT now())`,
    );
  }

  /** Records the deletion before it commits (a deletion that then fails is erased again on a restore, as its owner asked); `at` by auth's clock, as its accounts' changes. */
  async record(userId: string, at: Date): Promise<void> {
    await this.pool.query('INSERT INTO erasure_ledger (user_id, recorded_at) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING', [userId, at]);
  }

  /** Up to `limit` ids after `after` (keyset paging: a restore reads the ledger in pages, never at once). */
  async page(after: string | null, limit: number): Promise<string[]> {
    const rows = await this.pool.query<{ user_id: string }>(
      'SELECT user_id::text AS user_id FROM erasure_ledger WHERE $1::uuid IS NULL OR user_id > $1::uuid ORDER BY user_id LIMIT $2',
      [after, limit],
    );
    return rows.rows.map((row) => row.user_id);
  }

  /** Up to `limit` ids recorded at or after `since`, after `after` (a re-announcement of the deletions a consumer missed). */
  async pageSince(since: Date, after: string | null, limit: number): Promise<string[]> {
    const rows = await this.pool.query<{ user_id: string }>(
      'SELECT user_id::text AS user_id FROM erasure_ledger WHERE recorded_at >= $1 AND ($2::uuid IS NULL OR user_id > $2::uuid) ORDER BY user_id LIMIT $3',
      [since, after, limit],
    );
    return rows.rows.map((row) => row.user_id);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** Without ERASURE_LEDGER_URL: auth's database server, database `<auth database>_erasure_ledger` (production names one elsewhere: docs/operations.md). */
export function ledgerUrlFor(databaseUrl: string, configured: string | undefined): string {
  if (configured) return configured;
  const url = new URL(databaseUrl);
  url.pathname = `${url.pathname.replace(/\/$/, '')}_erasure_ledger`;
  return url.toString();
}
