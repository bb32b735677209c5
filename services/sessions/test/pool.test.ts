import { describe, expect, it } from 'vitest';
import { ensureDatabase } from '@hoptrack/runtime';
import { testDatabaseUrl } from '@hoptrack/testing';
import { sessionsConfigSchema } from '../src/config';
import { createPrisma } from '../src/db';

/**
 * DATABASE_POOL_MAX bounds the connections one process holds (replicas ×
 * it must stay under Postgres' max_connections): eight queries at once over
 * a pool of two use two connections, queued, not eight.
 */
describe('the database pool', () => {
  it('reads DATABASE_POOL_MAX (10 by default) and holds no more connections than it', async () => {
    expect(sessionsConfigSchema.parse({ NODE_ENV: 'test' }).DATABASE_POOL_MAX).toBe(10);
    const config = sessionsConfigSchema.parse({ NODE_ENV: 'test', DATABASE_POOL_MAX: '2' });
    expect(config.DATABASE_POOL_MAX).toBe(2);
    const url = testDatabaseUrl('sessions_pool');
    await ensureDatabase(url);
    const prisma = createPrisma(url, config.DATABASE_POOL_MAX);
    try {
      const pids = await Promise.all(
        Array.from({ length: 8 }, () => prisma.$queryRawUnsafe<Array<{ pid: number }>>('SELECT pg_backend_pid() AS pid FROM pg_sleep(0.05)').then((rows) => rows[0]?.pid)),
      );
      expect(pids.every((pid) => typeof pid === 'number')).toBe(true);
      expect(new Set(pids).size).toBeLessThanOrEqual(2);
    } finally {
      await prisma.$disconnect();
    }
  });
});
