/**
 * Postgres commits per session create across the whole stack (issue 41's
 * `Postgres commits per create`): a stack of its own (infra/testing's
 * startStack), authors registered and made friends in pairs, then `N`
 * creates (POST /api/sessions through the gateway, `CONCURRENCY` at a time),
 * and the growth of `xact_commit` summed over every service database until
 * every consumer of the SESSIONS stream settled, less the growth over an
 * equally long idle window (relays, pollers and the readiness checks commit
 * too), divided by the creates. Every statement outside a transaction counts
 * as one commit, as a WAL flush would.
 *
 *   RUN_FROM=dist TEST_DB_SUFFIX=x npx tsx infra/bench/create-commits.ts   # N=200, CONCURRENCY=1 and 8
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { streamNameFor } from '@hoptrack/proto';
import { connectBus, createLogger } from '@hoptrack/runtime';
import { callApi, registerUser, type RegisteredUser } from '@hoptrack/testing/api';
import { pgBase, startStack } from '@hoptrack/testing/stack';
import { PROCESSES } from '../build/catalogue';
import { BENCH_SESSION_FORM, SESSION_FORM_CONTENT_TYPE } from './lib/session-form';

const creates = Number(process.env.N ?? 200);
const concurrencies = (process.env.CONCURRENCY ?? '1,8').split(',').map(Number);
const suffix = `_cc${process.env.TEST_DB_SUFFIX ?? ''}`;
const namespace = `cc${randomBytes(4).toString('hex')}`;
const databases = [...new Set(PROCESSES.flatMap((p) => (p.database ? [`${p.database}${suffix}`] : [])))];


/** `a` asks, `b` accepts, once the social graph knows both (api.ts's makeFriends, without vitest's expect: this runs outside vitest). */
async function befriend(baseUrl: string, a: RegisteredUser, b: RegisteredUser): Promise<void> {
  const deadline = Date.now() + 60_000;
  while ((await callApi(baseUrl, a.token, 'GET', `/api/users/${b.id}`)).status !== 200 || (await callApi(baseUrl, b.token, 'GET', `/api/users/${a.id}`)).status !== 200) {
    if (Date.now() > deadline) throw new Error('the social graph never learnt of the authors');
    await new Promise((r) => setTimeout(r, 50));
  }
  const request = await callApi(baseUrl, a.token, 'POST', '/api/friendships', { friendId: b.id });
  const accepted = await callApi(baseUrl, b.token, 'PATCH', `/api/friendships/${(request.body as { id: string }).id}`, { action: 'accept' });
  if (request.status !== 201 || accepted.status !== 200) throw new Error(`friendship answered ${request.status}, ${accepted.status}`);
}

/** Each database's committed transactions, once the backends flushed their counters. */
async function commits(): Promise<Map<string, number>> {
  // An idle backend flushes its counters only every 10 s (PGSTAT_IDLE_INTERVAL): wait them out (infra/bench/feed-read.ts).
  await new Promise((r) => setTimeout(r, 10_500));
  const client = new pg.Client({ connectionString: `${pgBase()}/postgres` });
  await client.connect();
  try {
    const { rows } = await client.query<{ db: string; n: string }>('SELECT datname AS db, xact_commit::text AS n FROM pg_stat_database WHERE datname = ANY($1)', [databases]);
    return new Map(rows.map((r) => [r.db.slice(0, -suffix.length), Number(r.n)]));
  } finally {
    await client.end();
  }
}

/** Per create, for each database and in all: the growth from `a` to `b`, less the idle window's from `b` to `c`. */
function perCreate(a: Map<string, number>, b: Map<string, number>, c: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  let total = 0;
  for (const [db, before] of a) {
    const after = b.get(db) ?? before;
    const n = (after - before - ((c.get(db) ?? after) - after)) / creates;
    total += n;
    out[db] = +n.toFixed(2);
  }
  return { total: +total.toFixed(2), ...out };
}

async function main(): Promise<void> {
  const stack = await startStack({ serveWeb: false, namespace, databaseSuffix: suffix, env: { GATEWAY_RATE_LIMIT_MAX: '1000000', LOG_LEVEL: 'warn' } });
  const bus = await connectBus({ url: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', name: 'create-commits', namespace, logger: createLogger('create-commits', 'warn') }).catch(async (err: unknown) => {
    await stack.stop();
    throw err;
  });
  try {
    const authors: RegisteredUser[] = [];
    for (let i = 0; i < 8; i++) authors.push(await registerUser(stack.baseUrl, `cc${i}`));
    // Each author with a friend: the fan-out writes a friend's timeline, as for an ordinary person.
    for (let i = 0; i < authors.length; i += 2) await befriend(stack.baseUrl, authors[i] as RegisteredUser, authors[i + 1] as RegisteredUser);
    const create = async (author: RegisteredUser) => {
      const res = await fetch(`${stack.baseUrl}/api/sessions`, { method: 'POST', headers: { authorization: `Bearer ${author.token}`, 'content-type': SESSION_FORM_CONTENT_TYPE }, body: new Uint8Array(BENCH_SESSION_FORM) });
      if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
    };
    const settled = async () => {
      for (;;) {
        let busy = false;
        for await (const c of await bus.jsm.consumers.list(streamNameFor(namespace, 'SESSIONS'))) if (c.num_pending + c.num_ack_pending > 0) busy = true;
        if (!busy) return;
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await create(authors[0] as RegisteredUser); // warm
    await settled();
    for (const concurrency of concurrencies) {
      const before = await commits();
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          for (let i = next++; i < creates; i = next++) await create(authors[i % authors.length] as RegisteredUser);
        }),
      );
      await settled();
      const elapsed = performance.now() - started;
      const after = await commits();
      await new Promise((r) => setTimeout(r, elapsed));
      const idle = await commits();
      const sum = (m: Map<string, number>) => [...m.values()].reduce((x, y) => x + y, 0);
      console.log(JSON.stringify({ creates, concurrency, seconds: +(elapsed / 1000).toFixed(1), commits: sum(after) - sum(before), idleCommits: sum(idle) - sum(after), commitsPerCreate: perCreate(before, after, idle) }));
    }
  } finally {
    await bus.close();
    await stack.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
