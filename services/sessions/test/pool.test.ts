import { describe, expect, it } from 'vitest';
import { ensureDatabase, queryRows, sql } from '@hoptrack/runtime';
import { testDatabaseUrl } from '@hoptrack/testing';
import { sessionsConfigSchema } from '../src/config';
import { createDatabase } from '../src/db';

/**
 * DATABASE_POOL_MAX bounds the connections one process holds (replicas ×
 * it must stay under Postgres' max_connections): eight queries at once over
 * a pool of two use two connections, queued, not eight — Prisma's and the
 * named statements' together.
 */
describe('the database pool', () => {
  it('reads DATABASE_POOL_MAX (10 by default) and holds no more connections than it', async () => {
    expect(sessionsConfigSchema.parse({ NODE_ENV: 'test' }).DATABASE_POOL_MAX).toBe(10);
    const config = sessionsConfigSchema.parse({ NODE_ENV: 'test', DATABASE_POOL_MAX: '2' });
    expect(config.DATABASE_POOL_MAX).toBe(2);
    const url = testDatabaseUrl('sessions_pool');
    await ensureDatabase(url);
    const database = createDatabase(url, { poolMax: config.DATABASE_POOL_MAX });
    const statement = sql`SELECT pg_backend_pid() AS pid FROM pg_sleep(0.05)`;
    try {
      // Prisma and the named statements share the one pool.
      const pids = await Promise.all([
        ...Array.from({ length: 4 }, () => queryRows<Array<{ pid: number }>>(database.prisma, statement).then((rows) => rows[0]?.pid)),
        ...Array.from({ length: 4 }, () => database.prepared.query<{ pid: number }>('pool-test', statement).then((rows) => rows[0]?.pid)),
      ]);
      expect(pids.every((pid) => typeof pid === 'number')).toBe(true);
      expect(new Set(pids).size).toBeLessThanOrEqual(2);
      // A name stands for one text: another text under it is refused, not sent.
      await expect(database.prepared.query('pool-test', sql`SELECT ${1}::int AS pid`)).rejects.toThrow(/another text/);
    } finally {
      await database.close();
    }
  });
});
