import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Benchmark } from './lib/context';
import { openLoop, openLoopCalls } from './lib/load';
import { ProcessMeter } from './lib/procstat';
import { capacitySummary, compare, compareCapacities } from './lib/report';
import { BENCH_SESSION_FORM, SESSION_FORM_CONTENT_TYPE } from './lib/session-form';
import { describeCapacity, httpStep, measureCapacity, type CapacityFigure } from './lib/targets';

/**
 * 3. Session create: POST /api/sessions (the web app's multipart form,
 * without a photo) through the gateway, as the capacity at p99 ≤ 100 ms,
 * beside its reference — a one-row INSERT with pg into a table shaped like
 * beer_sessions (same columns and indexes), on the same ladder from the
 * same floor, climbing until it breaks too. The creators
 * are ordinary people; their fan-out runs meanwhile in the fan-out worker and
 * its CPU shows in the costs, because a create is not done until it is fanned out.
 */
const TARGET_P99_MS = 100;
/** Both searches' floor: the ladder's first rung. */
const FLOOR_RPS = 25;

export const benchSessionCreate: Benchmark = async (ctx) => {
  const { users } = ctx.seed.scale;
  const creators = Array.from({ length: ctx.smoke ? 20 : 500 }, (_, i) => Math.floor(users * 0.3) + i).filter((i) => i % 10 !== 0);
  const tokens = await Promise.all(creators.map((i) => ctx.token(i)));
  const body = BENCH_SESSION_FORM;
  const request = (i: number) => ({
    method: 'POST' as const,
    path: '/api/sessions',
    headers: { authorization: `Bearer ${tokens[i % tokens.length]}`, 'content-type': SESSION_FORM_CONTENT_TYPE },
    body,
  });
  const check = await openLoop(ctx.stack.baseUrl, { rate: 5, seconds: 1, request, keepBodies: true });
  if (check.errors > 0) throw new Error(`session create answered ${JSON.stringify(check.statuses)}`);

  const meter = ProcessMeter.of([
    { name: 'gateway', pid: ctx.stack.gateway.child.pid ?? 0 },
    { name: 'sessions', pid: ctx.stack.services.sessions.child.pid ?? 0 },
    { name: 'sessions-fanout', pid: ctx.stack.services['sessions-fanout'].child.pid ?? 0 },
    { name: 'social-graph', pid: ctx.stack.services['social-graph'].child.pid ?? 0 },
    // It consumes session.created too (a title for the inbox's words): its transaction per create is part of the cost.
    { name: 'notifications', pid: ctx.stack.services.notifications.child.pid ?? 0 },
  ]);
  const api = await measureCapacity(ctx, meter, httpStep(ctx.stack.baseUrl, { request }), { floorRps: FLOOR_RPS, targetP99Ms: TARGET_P99_MS });
  ctx.log(`  create via gateway: ${describeCapacity(api)} at p99 ≤ ${TARGET_P99_MS} ms`);

  const pool = new pg.Pool({ connectionString: ctx.databases.sessions, max: 10 });
  try {
    await pool.query('DROP TABLE IF EXISTS bench_insert');
    await pool.query('CREATE TABLE bench_insert (LIKE beer_sessions INCLUDING ALL)');
    const insert = async () => {
      await pool.query(
        `INSERT INTO bench_insert (id, user_id, title, description, beer_count, duration, avg_abv, beer_types, location, created_at, updated_at)
         VALUES ($1, $2, 'Bench night', 'Logged by the benchmark.', 3, 120, '5.2', ARRAY['IPA','Stout'], 'The Bench Arms', now(), now())`,
        [randomUUID(), randomUUID()],
      );
      return 200;
    };
    await openLoopCalls(50, 1, insert);
    const reference = await measureCapacity(ctx, meter, (rate, seconds) => openLoopCalls(rate, seconds, insert), { floorRps: FLOOR_RPS, targetP99Ms: TARGET_P99_MS });
    ctx.log(`  one-row INSERT: ${describeCapacity(reference)} at p99 ≤ ${TARGET_P99_MS} ms`);
    await pool.query('DROP TABLE bench_insert');
    const p99At = (c: CapacityFigure) => c.median.capacity.atSustained?.p99 ?? 0;
    return {
      id: 'session-create',
      title: 'Session create',
      comparisons: [
        compareCapacities({
          measure: `POST /api/sessions (multipart, no photo) through the gateway, rps at p99 ≤ ${TARGET_P99_MS} ms`,
          value: api,
          reference: 'a one-row pg INSERT into a beer_sessions-shaped table (10 connections)',
          referenceValue: reference,
        }),
        compare({
          measure: 'p99 of the create at that rate (median run)',
          value: p99At(api),
          unit: 'ms',
          reference: 'p99 of the INSERT at its own sustained rate (median run)',
          referenceValue: p99At(reference),
        }),
      ],
      costs: [
        ...api.median.costs.map((c) => ({ at: `create at ${api.rps} rps`, ...c })),
        ...reference.median.costs.map((c) => ({ at: `INSERT at ${reference.rps} rps`, ...c })),
      ],
      details: { api: capacitySummary(api), insert: capacitySummary(reference) },
    };
  } finally {
    await pool.end();
  }
};
