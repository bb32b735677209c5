import { randomUUID } from 'node:crypto';
import { BOUNDED_STORES, pgSqlClient, pruneStores } from '@hoptrack/runtime';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, registerUser, waitForSocialUser, type RegisteredUser } from '@hoptrack/testing/api';
import { storesOf } from '@hoptrack/testing/erasure-search';
import { formatReconciled, WriteLedger, type Reconciled } from '@hoptrack/testing/ledger';
import { largestByName, pendingWork, scrapeMetrics } from '@hoptrack/testing/metrics';
import { startProcess, type RunningProcess } from '@hoptrack/testing/processes';
import { startStack, type ServiceName, type Stack } from '@hoptrack/testing/stack';

/**
 * Issue 9, item 10, with two copies of everything since issue 20: mixed
 * traffic from several people through the gateway for SOAK_SECONDS (45 in
 * `make test`; `make soak` runs the documented 10 minutes) with a fault every
 * quarter of the run: a fan-out worker SIGKILLed, a thumbnail worker
 * SIGKILLed, a messaging instance restarted (SIGTERM). Each fault hits one
 * copy while its twin keeps working, so no request may answer 5xx at all;
 * every process's memory stays flat and every backlog drains at the end (a
 * process that does not answer its metrics is not drained); p95 latency and
 * the largest outbox and consumer lag are reported.
 *
 * Issue 38, item 9: the writes are a ledger of what clients were told
 * (infra/testing/ledger.ts) — sessions, messages and albums acknowledged,
 * and writes the API refuses (a negative beer count, a message to nobody, a
 * name past its limit), each marked — compared at the end with what the
 * databases hold: every acknowledged object stored once, nothing stored for
 * a refusal, nothing more than the unknown answers explain.
 *
 * Issue 38, item 8: the stores kept per event or per request (outbox,
 * processed_events, idempotent_requests; BOUNDED_STORES) are counted in every
 * database before and after the traffic, then pruned as the services' pruner
 * would once their retention has passed (a pass dated a year on): every row
 * the soak added goes, so those tables stay flat over time, however long the
 * traffic; what stays is the content the ledger accounts for.
 */
const SECONDS = Number(process.env.SOAK_SECONDS ?? 45);
const PEOPLE = 6;

let stack: Stack;
const respawned: RunningProcess[] = [];

beforeAll(async () => {
  // Two copies of every service and worker, as production runs (issue 20). This file and the
  // rolling restart run in the suite's 'two-copy' project, one at a time (vitest.config.ts).
  // Production's drain: with the tests' 300 ms the restarted messaging copy closed before the
  // gateway's readiness poll (500 ms then; 1 s since 2026-12-04) saw it draining, and a message sent to it then met Fastify's
  // 503 for requests arriving while it closes (one in a CI run).
  stack = await startStack({
    serveWeb: false,
    replicas: 2,
    env: { GATEWAY_RATE_LIMIT_MAX: '1000000', LOG_LEVEL: 'warn', SHUTDOWN_DRAIN_MS: '2000' },
  });
}, 240_000);
afterAll(async () => {
  for (const proc of respawned) await proc.stop();
  await stack?.stop();
});

interface Sample {
  ms: number;
  status: number;
  what: string;
}

describe(`soak: ${SECONDS} s of mixed traffic with faults`, () => {
  it('answers no 5xx while one copy of a process fails, keeps memory flat and drains every backlog', { timeout: (SECONDS + 420) * 1000 }, async () => {
    const { baseUrl } = stack;
    const people: RegisteredUser[] = [];
    for (let i = 0; i < PEOPLE; i++) people.push(await registerUser(baseUrl, `soak${i}`));
    // Everyone befriends the next one, once the graph knows them.
    for (let i = 0; i < PEOPLE; i++) {
      const [a, b] = [people[i] as RegisteredUser, people[(i + 1) % PEOPLE] as RegisteredUser];
      await waitForSocialUser(baseUrl, a, b);
      const sent = await callApi(baseUrl, a.token, 'POST', '/api/friendships', { friendId: b.id });
      if (sent.status === 201) await callApi(baseUrl, b.token, 'PATCH', `/api/friendships/${(sent.body as { id: string }).id}`, { action: 'accept' });
    }
    const bars = (await callApi(baseUrl, people[0]!.token, 'GET', '/api/bars')).body as Array<{ id: string }>;
    const storesBefore = await boundedRows(stack);

    const samples: Sample[] = [];
    const timed = async (what: string, call: () => Promise<number>) => {
      const started = Date.now();
      const status = await call().catch(() => 599);
      samples.push({ ms: Date.now() - started, status, what });
      return status;
    };
    const ledger = new WriteLedger();
    /** A write whose answer goes into the ledger: the id of a 2xx body, the marker of a refusal, else unknown. */
    const write = (kind: string, marker: string, call: () => Promise<{ status: number; body: unknown }>) =>
      timed(kind, async () => {
        const answer = await call().catch(() => ({ status: 599, body: null }));
        ledger.record(kind, answer.status, (answer.body as { id?: string } | null)?.id, marker);
        return answer.status;
      });
    const sessionForm = (fields: Record<string, string>) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      return form;
    };
    const postForm = async (me: RegisteredUser, path: string, form: FormData) => {
      const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${me.token}` }, body: form });
      return { status: res.status, body: (await res.json().catch(() => null)) as unknown };
    };
    const marker = (kind: string) => `soak ${kind} ${randomUUID()}`;
    const actions: Array<(me: RegisteredUser, other: RegisteredUser) => Promise<unknown>> = [
      (me) => timed('feed', async () => (await callApi(baseUrl, me.token, 'GET', '/api/sessions?filter=all')).status),
      (me) => {
        const m = marker('session');
        return write('session', m, () => postForm(me, '/api/sessions', sessionForm({ title: m })));
      },
      (me, other) => {
        const m = marker('message');
        return write('message', m, () => callApi(baseUrl, me.token, 'POST', '/api/messages', { toUserId: other.id, content: m }));
      },
      (me) => timed('conversations', async () => (await callApi(baseUrl, me.token, 'GET', '/api/conversations')).status),
      (me) => timed('search', async () => (await callApi(baseUrl, me.token, 'GET', '/api/users/search?q=soak')).status),
      (me) => timed('bar', async () => (await callApi(baseUrl, me.token, 'GET', `/api/bars/${bars[0]?.id}`)).status),
      (me) => timed('profile', async () => (await callApi(baseUrl, me.token, 'GET', '/api/me')).status),
      (me) => {
        const m = marker('album');
        return write('album', m, () => callApi(baseUrl, me.token, 'POST', '/api/albums', { name: m.slice(0, 100) }));
      },
      // Refusals, one of each kind: the marker is what would be stored, were the write let through.
      (me) => {
        const m = marker('session');
        return write('session', m, () => postForm(me, '/api/sessions', sessionForm({ title: m, beerCount: '-1' })));
      },
      (me) => {
        const m = marker('message');
        return write('message', m, () => callApi(baseUrl, me.token, 'POST', '/api/messages', { toUserId: randomUUID(), content: m }));
      },
      (me) => {
        const m = marker('album');
        return write('album', m, () => callApi(baseUrl, me.token, 'POST', '/api/albums', { name: `${m} ${'x'.repeat(100)}` }));
      },
    ];

    /** Every running instance, named `service#n`: the restarted one replaces its predecessor in stack.instances. */
    const processes = (): Record<string, RunningProcess> => ({
      gateway: stack.gateway,
      ...Object.fromEntries(Object.entries(stack.instances).flatMap(([name, list]) => list.map((proc, i) => [`${name}#${i + 1}`, proc]))),
    });
    const memory: Record<string, number[]> = {};
    let maxOutbox = 0;
    let maxLag = 0;
    const sampleMetrics = async () => {
      for (const [name, proc] of Object.entries(processes())) {
        const values = largestByName(await scrapeMetrics(proc.metricsUrl));
        // Per process, not per name: a restarted copy starts a series of its own.
        if (values.process_resident_memory_bytes) (memory[`${name}@${proc.child.pid}`] ??= []).push(values.process_resident_memory_bytes);
        maxOutbox = Math.max(maxOutbox, values.outbox_pending_events ?? 0);
        maxLag = Math.max(maxLag, values.bus_consumer_pending_events ?? 0);
      }
    };

    // Faults, one per third of the run: kill -9 a worker (then start it again), restart a service.
    const faults: Array<{ at: number; readyAt: number; what: string }> = [];
    const drainedExits: Array<{ name: string; code: number | null }> = [];
    /** The first copy of `name` stopped with `signal` and started again; its twin keeps serving. */
    const restart = async (name: ServiceName, signal: NodeJS.Signals) => {
      const list = stack.instances[name];
      const current = list[0] as RunningProcess;
      const fault = { at: Date.now(), readyAt: Number.POSITIVE_INFINITY, what: `${name}#1 ${signal}` };
      faults.push(fault);
      await current.stop(signal);
      // A SIGTERM under traffic must drain and exit cleanly (0), not be cut off.
      if (signal === 'SIGTERM') {
        drainedExits.push({ name, code: current.child.exitCode });
        // Its last words say why, should it not exit 0.
        if (current.child.exitCode !== 0) console.warn(`${name} exited ${current.child.exitCode}:\n${current.lines.slice(-20).join('\n')}`);
      }
      await new Promise((r) => setTimeout(r, 1000));
      const next = await startProcess({ ...current.options, readyPath: '/readyz' });
      respawned.push(next);
      list[0] = next;
      fault.readyAt = Date.now();
    };
    const plan: Array<[number, () => Promise<void>]> = [
      [SECONDS / 4, () => restart('sessions-fanout', 'SIGKILL')],
      [SECONDS / 2, () => restart('media-worker', 'SIGKILL')],
      [(3 * SECONDS) / 4, () => restart('messaging', 'SIGTERM')],
    ];

    const start = Date.now();
    const end = start + SECONDS * 1000;
    const traffic = people.map(async (me, i) => {
      while (Date.now() < end) {
        const action = actions[Math.floor(Math.random() * actions.length)] as (me: RegisteredUser, other: RegisteredUser) => Promise<unknown>;
        await action(me, people[(i + 1) % PEOPLE] as RegisteredUser);
      }
    });
    const faulting = (async () => {
      for (const [atSecond, fault] of plan) {
        await new Promise((r) => setTimeout(r, Math.max(0, start + atSecond * 1000 - Date.now())));
        await fault();
      }
    })();
    const sampling = (async () => {
      while (Date.now() < end) {
        await sampleMetrics();
        await new Promise((r) => setTimeout(r, 5000));
      }
    })();
    await Promise.all([...traffic, faulting, sampling]);

    // Backlogs (outboxes, consumers, job queues) drain once the traffic stops: polled until they
    // do (the bound only ends a stuck run), and what is left is named should they not.
    let waiting: string[] = [];
    const drainBy = Date.now() + 180_000;
    do {
      waiting = await pendingWork(Object.entries(processes()).map(([name, proc]) => ({ name, url: proc.metricsUrl })));
      if (waiting.length > 0) await new Promise((r) => setTimeout(r, 500));
    } while (waiting.length > 0 && Date.now() < drainBy);
    const drained = waiting.length === 0;

    // The ledger against the databases: every object of each kind the soak's people own, and the markers among them.
    const ids = people.map((p) => p.id);
    const stored = async (database: string, query: string): Promise<Array<{ id: string; text: string }>> => {
      const url = storesOf(stack).databaseUrls.find((u) => new URL(u).pathname.slice(1).startsWith(database));
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query<{ id: string; text: string }>(query, [ids])).rows;
      } finally {
        await client.end();
      }
    };
    const reconciled: Reconciled[] = [];
    for (const [kind, database, query] of [
      ['session', 'hoptrack_sessions', 'SELECT id::text AS id, title AS text FROM beer_sessions WHERE user_id = ANY($1::uuid[])'],
      ['message', 'hoptrack_messaging', 'SELECT id::text AS id, content AS text FROM messages WHERE sender_id = ANY($1::uuid[])'],
      ['album', 'hoptrack_media', 'SELECT id::text AS id, name AS text FROM photo_albums WHERE user_id = ANY($1::uuid[])'],
    ] as const) {
      const rows = await stored(database, query);
      const texts = rows.map((r) => r.text);
      const refusedSeen = ledger.entries().find(([k]) => k === kind)?.[1].refusedMarkers.filter((m) => texts.some((t) => t.startsWith(m.slice(0, 100)))) ?? [];
      reconciled.push(ledger.reconcile(kind, rows.map((r) => r.id), refusedSeen));
    }
    console.info(`[figure] soak ledger: ${reconciled.map(formatReconciled).join('; ')}`);

    // The bounded stores: grown by the traffic, and every row of it gone once past its retention.
    const storesAfter = await boundedRows(stack);
    const pruned = await pruneAllAsOf(stack, new Date(Date.now() + YEAR_MS));
    const storesPruned = await boundedRows(stack);
    const total = (rows: Record<string, number>) => Object.values(rows).reduce((a, b) => a + b, 0);
    console.info(
      `[figure] soak bounded stores (rows, every database): before ${total(storesBefore)}, after the traffic ${total(storesAfter)}, ` +
        `after a pruning pass dated a year on ${total(storesPruned)} (${pruned} deleted); per table after the traffic: ${formatRows(storesAfter)}`,
    );

    const errors = samples.filter((s) => s.status >= 500);
    const latencies = samples.filter((s) => s.status < 500).map((s) => s.ms).sort((a, b) => a - b);
    const p95 = latencies[Math.floor(latencies.length * 0.95)] ?? 0;
    const growth = Object.entries(memory).map(([name, series]) => {
      const third = Math.max(1, Math.floor(series.length / 3));
      // The early floor once warm (the middle third): the first holds a process's RSS from before its heap grew to the
      // traffic's working set, which is no leak (the gateway's 93 → 159 MiB in a 45 s soak, 2026-12-04, failed the check).
      const warm = series.slice(third, Math.max(third + 1, series.length - third));
      const early = Math.min(...(warm.length > 0 ? warm : series));
      const late = Math.min(...series.slice(-third));
      return { name, earlyMiB: early / 2 ** 20, lateMiB: late / 2 ** 20 };
    });
    console.info(
      `[figure] soak ${SECONDS} s, ${PEOPLE} people, ${samples.length} requests, faults: ${faults.map((f) => f.what).join(', ')}; ` +
        `5xx ${errors.length}; restarted copies ready after ${faults.map((f) => `${((f.readyAt - f.at) / 1000).toFixed(1)} s`).join(', ')}; p95 ${p95} ms; ` +
        `largest outbox ${maxOutbox}, largest consumer lag ${maxLag}; backlogs drained ${drained}; ` +
        `memory MiB (early → late, per process): ${growth.map((g) => `${g.name} ${g.earlyMiB.toFixed(0)}→${g.lateMiB.toFixed(0)}`).join(', ')}`,
    );
    expect(errors.map((e) => `${e.what} ${e.status}`)).toEqual([]);
    for (const r of reconciled) {
      expect({ kind: r.kind, lost: r.lost, doubled: r.doubled, storedRefused: r.storedRefused }).toEqual({ kind: r.kind, lost: [], doubled: 0, storedRefused: [] });
      // The soak really wrote and was really refused, of every kind.
      expect(r.acknowledged, `${r.kind} acknowledged`).toBeGreaterThan(0);
      expect(r.refused, `${r.kind} refused`).toBeGreaterThan(0);
    }
    expect(waiting).toEqual([]);
    // The traffic did fill the stores (the measure can fail), and nothing of them outlives its retention.
    expect(total(storesAfter)).toBeGreaterThan(total(storesBefore));
    expect(storesPruned).toEqual(Object.fromEntries(Object.keys(storesPruned).map((key) => [key, 0])));
    expect(drainedExits).toEqual(drainedExits.map(({ name }) => ({ name, code: 0 })));
    expect(drainedExits.length).toBeGreaterThan(0);
    // Flat: the late floor of each process's memory within 50 % (and 64 MiB) of its floor once warm.
    for (const g of growth) expect(g.lateMiB, g.name).toBeLessThan(Math.max(g.earlyMiB * 1.5, g.earlyMiB + 64));
  });
});

const YEAR_MS = 365 * 24 * 3600_000;

/** Runs `use` on a pool of one connection to each of the stack's service databases. */
async function eachDatabase<T>(stack: Stack, use: (pool: pg.Pool, database: string) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (const url of storesOf(stack).databaseUrls) {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      results.push(await use(pool, new URL(url).pathname.slice(1)));
    } finally {
      await pool.end();
    }
  }
  return results;
}

/** Rows of each bounded store, as `<database>.<table>`, in every database that has it. */
async function boundedRows(stack: Stack): Promise<Record<string, number>> {
  const counts = await eachDatabase(stack, async (pool, database) => {
    const found: Array<[string, number]> = [];
    for (const { table } of BOUNDED_STORES) {
      const exists = (await pool.query<{ found: boolean }>('SELECT to_regclass($1) IS NOT NULL AS found', [`public.${table}`])).rows[0]?.found;
      if (!exists) continue;
      const n = (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}"`)).rows[0]?.n ?? 0;
      found.push([`${database}.${table}`, n]);
    }
    return found;
  });
  return Object.fromEntries(counts.flat());
}

/** The services' pruning pass (pruneStores), run on every database as of `at`; rows deleted in all. */
async function pruneAllAsOf(stack: Stack, at: Date): Promise<number> {
  const deleted = await eachDatabase(stack, async (pool) => Object.values(await pruneStores(pgSqlClient(pool), at)).reduce((a, b) => a + b, 0));
  return deleted.reduce((a, b) => a + b, 0);
}

const formatRows = (rows: Record<string, number>) =>
  Object.entries(rows)
    .filter(([, n]) => n > 0)
    .map(([key, n]) => `${key.replace(/^hoptrack_/, '')} ${n}`)
    .join(', ');
