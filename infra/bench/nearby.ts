import pg from 'pg';
import { nearbyParams, nearbySql } from '../../services/places/src/domain/catalogue';
import type { Benchmark } from './lib/context';
import { openLoop, summarise } from './lib/load';
import { compare, round, stepSummary } from './lib/report';

/**
 * 7. Nearby bars over the full seeded catalogue. The API's p99 at a steady
 * rate, and the query itself beside its reference: the very same SQL
 * (exported by the catalogue) on a copy of the bars table without the GiST
 * index, one query at a time so only the plan differs.
 */
const RADIUS_M = 5000;

export const benchNearby: Benchmark = async (ctx) => {
  const db = new pg.Client({ connectionString: ctx.databases.places });
  await db.connect();
  try {
    const bars = Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM bars')).rows[0]?.n ?? 0);
    const seeds = (await db.query<{ latitude: number; longitude: number }>('SELECT latitude, longitude FROM bars WHERE latitude IS NOT NULL ORDER BY id LIMIT 400')).rows;
    if (seeds.length === 0) throw new Error('the places catalogue is empty');
    // Deterministic query points: seeded bars, nudged by up to ~3 km.
    const at = (i: number) => {
      const p = seeds[(i * 37) % seeds.length] as { latitude: number; longitude: number };
      return { lat: p.latitude + ((i % 7) - 3) * 0.01, lng: p.longitude + ((i % 5) - 2) * 0.01 };
    };
    await db.query('DROP TABLE IF EXISTS bars_unindexed');
    await db.query('CREATE TABLE bars_unindexed AS SELECT * FROM bars');
    await db.query('ANALYZE bars_unindexed');

    const runs = ctx.smoke ? 30 : 500;
    const timeQuery = async (table: string, n: number) => {
      const sql = nearbySql(table);
      for (let i = 0; i < Math.min(20, n); i++) await db.query(sql, [...nearbyParams({ ...at(i), radius: RADIUS_M, limit: 20 })]);
      const ms: number[] = [];
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        await db.query(sql, [...nearbyParams({ ...at(i), radius: RADIUS_M, limit: 20 })]);
        ms.push(performance.now() - t);
      }
      return summarise(ms);
    };
    const indexed = await timeQuery('bars', runs);
    const unindexed = await timeQuery('bars_unindexed', Math.max(20, Math.floor(runs / 5)));
    await db.query('DROP TABLE bars_unindexed');

    // The API direct on the places service at a steady rate (auth, validation, JSON included).
    const token = await ctx.token(ctx.seed.reader);
    const rate = ctx.smoke ? 20 : 200;
    ctx.meter.begin();
    const api = await openLoop(ctx.stack.services.places.url, {
      rate,
      seconds: ctx.stepSeconds * 2,
      request: (i) => {
        const { lat, lng } = at(i);
        return { path: `/api/bars/nearby?lat=${lat}&lng=${lng}&radius=${RADIUS_M}&limit=20`, headers: { authorization: `Bearer ${token}` } };
      },
    });
    const costs = ctx.meter.end(api.requests).map((c) => ({ at: `nearby API at ${rate} rps`, ...c }));
    if (api.errors > 0) throw new Error(`nearby API answered errors: ${JSON.stringify(api.statuses)}`);

    return {
      id: 'nearby',
      title: 'Nearby bars',
      comparisons: [
        compare({
          measure: `Nearby query p99 (${bars.toLocaleString('en-GB')} bars, r = 5 km, 20 results), GiST index`,
          value: indexed.p99,
          unit: 'ms',
          reference: 'the same query on a copy of the table without the index',
          referenceValue: unindexed.p99,
        }),
        compare({
          measure: `GET /api/bars/nearby p99 at ${rate} rps, direct to places`,
          value: api.p99,
          unit: 'ms',
          reference: 'the indexed query alone (p99)',
          referenceValue: indexed.p99,
        }),
      ],
      costs,
      details: {
        bars,
        indexed: { p50: round(indexed.p50), p99: round(indexed.p99) },
        unindexed: { p50: round(unindexed.p50), p99: round(unindexed.p99) },
        api: stepSummary(api),
      },
    };
  } finally {
    await db.end();
  }
};
