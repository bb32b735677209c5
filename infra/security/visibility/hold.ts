import pg from 'pg';

/**
 * How the matrix reads an author no service has heard of yet, without racing
 * the events: it holds the services' people consumers.
 *
 * Each service's people table ("users", kept by the audience module from
 * auth's user.* events) is written by one durable consumer that applies the
 * USERS stream one event at a time, in order. The hold takes a row lock on a
 * person of our own (the plug) in that table; the plug then changes their
 * bio, and the consumer's upsert of that user.updated event waits on the lock
 * (services/runtime/src/db/snapshot.ts: INSERT ... ON CONFLICT DO UPDATE locks
 * the row). Every later event of the stream — the newcomer's user.registered —
 * waits behind it until the hold is released. Nothing else waits: reads of the
 * table, the SOCIAL and SESSIONS streams and every other row go on as usual
 * (FOR NO KEY UPDATE leaves foreign-key checks, which take FOR KEY SHARE, alone).
 *
 * On release the waiting upsert completes; its transaction may have passed
 * Prisma's timeout meanwhile, in which case the handler fails, the event is
 * redelivered 500 ms later and applied (the inbox keeps it once), and the
 * queue behind it follows.
 */
export interface Hold {
  service: string;
  /** The consumer is stopped at the plug's event: a backend waits on this hold's lock. */
  engaged(): Promise<boolean>;
  /** Whether the service's people table has this person (what its consumer has committed). */
  knows(personId: string): Promise<boolean>;
  /** Lets the consumer go on; idempotent. */
  release(): Promise<void>;
}

async function knowsVia(client: pg.Client, personId: string): Promise<boolean> {
  const { rows } = await client.query<{ known: boolean }>('SELECT EXISTS (SELECT 1 FROM "users" WHERE "id" = $1::uuid) AS "known"', [personId]);
  return rows[0]?.known ?? false;
}

/** Whether the service behind `databaseUrl` has applied this person's registration (one short connection). */
export async function serviceKnows(databaseUrl: string, personId: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await knowsVia(client, personId);
  } finally {
    await client.end();
  }
}

/** Locks the plug's row in the service's people table, in a transaction left open until `release()`. */
export async function holdPeopleConsumer(service: string, databaseUrl: string, plugId: string): Promise<Hold> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'visibility-matrix-hold' });
  await client.connect();
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    await client.query('ROLLBACK').catch(() => undefined);
    await client.end();
  };
  try {
    await client.query('BEGIN');
    const locked = await client.query('SELECT 1 FROM "users" WHERE "id" = $1::uuid FOR NO KEY UPDATE', [plugId]);
    if (locked.rowCount !== 1) throw new Error(`${service}: the plug ${plugId} is not in its people table; nothing to hold on`);
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS "pid"');
    const pid = rows[0]?.pid;
    return {
      service,
      async engaged() {
        const waiting = await client.query<{ n: number }>('SELECT count(*)::int AS "n" FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))', [pid]);
        return (waiting.rows[0]?.n ?? 0) > 0;
      },
      knows: (personId) => knowsVia(client, personId),
      release,
    };
  } catch (err) {
    await release();
    throw err;
  }
}
