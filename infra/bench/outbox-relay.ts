/**
 * What the outbox relay costs per published event (issue 41): CPU of the
 * relaying process (its SQL client, its NATS publishes, its own JS) and
 * Postgres commits, over N events, the relay given Prisma's client (what the
 * services passed before) and a plain pg client (what they pass now), in two
 * shapes:
 * - one per pass: an event written, the relay poked and drained, the next
 *   written — a create at a time, the product's usual load;
 * - backlog: N events waiting, one drain (batches of 100) — a relay catching up.
 *
 *   npx tsx infra/bench/outbox-relay.ts        # N=2000 events per figure, ROUNDS=1
 *
 * Runs on its own scratch database (created) and stream (deleted after).
 */
import { randomUUID } from 'node:crypto';
import { Outbox, OutboxRelay, connectBus, createLogger, deleteStreams, ensureDatabase, ensureStreams, pgSqlClient, sharedPool, OUTBOX_TABLE_SQL, type TransactionalSqlClient } from '@hoptrack/runtime';
import { PrismaPg } from '@prisma/adapter-pg';
import { pgBase } from '@hoptrack/testing/stack';
import { testUserSnapshot } from '@hoptrack/testing';
import { PrismaClient } from '../../services/notifications/src/db';

const url = `${pgBase()}/hoptrack_relay_bench`;
const total = Number(process.env.N ?? 2000);
const logger = createLogger('outbox-relay-bench', 'warn');

await ensureDatabase(url);
const shared = sharedPool(url, { poolMax: 4 });
const prisma = new PrismaClient({ adapter: new PrismaPg(shared.pool) });
const viaPg = pgSqlClient(shared.pool);
await shared.pool.query(OUTBOX_TABLE_SQL);
const bus = await connectBus({ url: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', name: 'outbox-relay-bench', namespace: `relaybench${process.pid}`, logger });
await ensureStreams(bus, ['USERS']);
const outbox = new Outbox(bus.namespace);

const commits = async (): Promise<number> =>
  Number((await shared.pool.query<{ n: string }>('SELECT xact_commit::text AS n FROM pg_stat_database WHERE datname = current_database()')).rows[0]?.n ?? 0);

/** Postgres's statistics arrive late (pg_stat_database is flushed at most every second): waits for them to settle. */
async function settledCommits(): Promise<number> {
  let last = await commits();
  for (;;) {
    await new Promise((r) => setTimeout(r, 1100));
    const now = await commits();
    if (now === last) return now;
    last = now;
  }
}

async function measure(name: string, db: TransactionalSqlClient, shape: 'one per pass' | 'backlog') {
  await shared.pool.query('TRUNCATE "outbox"');
  const relay = new OutboxRelay({ db, bus, logger });
  const users = Array.from({ length: total }, () => testUserSnapshot(randomUUID()));
  if (shape === 'backlog') for (const user of users) await outbox.enqueue(viaPg, 'user.updated.v1', user);
  const commitsBefore = await settledCommits();
  const cpu = process.cpuUsage();
  const started = performance.now();
  let published = 0;
  if (shape === 'backlog') published = await relay.drain();
  else
    for (const user of users) {
      // The write is not the relay's: its CPU is taken out below.
      const write = process.cpuUsage();
      await outbox.enqueue(viaPg, 'user.updated.v1', user);
      writeCpu += cpuOf(process.cpuUsage(write));
      published += await relay.drain();
    }
  const used = cpuOf(process.cpuUsage(cpu)) - (shape === 'backlog' ? 0 : writeCpu);
  const ms = performance.now() - started;
  writeCpu = 0;
  await relay.stop();
  if (published !== total) throw new Error(`${name}: published ${published} of ${total}`);
  // The writes' own commits (one each, autocommit) are not the relay's.
  const relayCommits = (await settledCommits()) - commitsBefore - (shape === 'backlog' ? 0 : total);
  console.log(
    `${name.padEnd(12)} ${shape.padEnd(12)}: ${(ms / total).toFixed(3)} ms each, ${(used / total).toFixed(3)} CPU-ms per event in the relaying process, ${(relayCommits / total).toFixed(2)} commits per event`,
  );
}

let writeCpu = 0;
const cpuOf = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

try {
  // A warm-up of each client, unmeasured.
  for (const db of [prisma, viaPg]) {
    for (let i = 0; i < 200; i++) await outbox.enqueue(viaPg, 'user.updated.v1', testUserSnapshot(randomUUID()));
    await new OutboxRelay({ db, bus, logger }).drain();
  }
  for (let round = 0; round < Number(process.env.ROUNDS ?? 1); round++) {
    for (const shape of ['one per pass', 'backlog'] as const) {
      await measure('prisma', prisma, shape);
      await measure('plain pg', viaPg, shape);
    }
  }
} finally {
  await deleteStreams(bus);
  await bus.close();
  await prisma.$disconnect();
  await shared.end();
}
