/**
 * What one consumed event's inbox transaction costs the consuming process:
 * the dedup claim and one upsert (notifications' session reference, the
 * shape every consumer of session.created has), through Prisma's interactive
 * transaction and through a pg client on the same database (BEGIN … COMMIT),
 * sequentially, CPU of this process per transaction. The figure behind the
 * consumers' move to plain SQL (docs/decisions.md, docs/benchmarks.md).
 *
 *   npx tsx infra/bench/inbox-transaction.ts        # N=3000 per round, two rounds
 *
 * Needs the `hoptrack_notifications_bench` database a `make bench` left behind.
 */
import { randomUUID } from 'node:crypto';
import { pgSqlClient, sharedPool, type SqlClient } from '@hoptrack/runtime';
import { PrismaPg } from '@prisma/adapter-pg';
import { pgBase } from '@hoptrack/testing/stack';
import pg from 'pg';
import { PrismaClient } from '../../services/notifications/src/db';

const url = `${pgBase()}/hoptrack_notifications_bench`;
const shared = sharedPool(url, { poolMax: 4 });
const prisma = new PrismaClient({ adapter: new PrismaPg(shared.pool) });
const pool = new pg.Pool({ connectionString: url, max: 4 });
const viaPg = pgSqlClient(pool);
const total = Number(process.env.N ?? 3000);
const CONSUMER = 'inbox-transaction-bench';

const claimAndUpsert = async (tx: SqlClient) => {
  const id = randomUUID();
  await tx.$executeRawUnsafe('INSERT INTO "processed_events" ("consumer", "event_id") VALUES ($1, $2::uuid) ON CONFLICT DO NOTHING', CONSUMER, id);
  await tx.$executeRawUnsafe(
    'INSERT INTO "session_refs" (session_id, owner_id, title, updated_at) VALUES ($1::uuid, $2::uuid, $3, now()) ON CONFLICT (session_id) DO NOTHING',
    id,
    randomUUID(),
    'bench',
  );
};

async function measure(name: string, transaction: (fn: (tx: SqlClient) => Promise<void>) => Promise<void>) {
  for (let i = 0; i < 300; i++) await transaction(claimAndUpsert);
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < total; i++) await transaction(claimAndUpsert);
  const used = process.cpuUsage(cpu);
  const ms = performance.now() - started;
  console.log(`${name}: ${(ms / total).toFixed(3)} ms each, ${((used.user + used.system) / 1000 / total).toFixed(3)} CPU ms each in this process`);
}

try {
  for (let round = 0; round < 2; round++) {
    await measure('prisma $transaction', (fn) => prisma.$transaction((tx) => fn(tx)));
    await measure('pg BEGIN … COMMIT  ', (fn) => viaPg.$transaction(fn));
  }
} finally {
  await pool.query('DELETE FROM processed_events WHERE consumer = $1', [CONSUMER]);
  await pool.query("DELETE FROM session_refs WHERE title = 'bench'");
  await prisma.$disconnect();
  await shared.end();
  await pool.end();
}
