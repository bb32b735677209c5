import { startGateway } from '@hoptrack/testing/gateway';
import { freePort, startProcess, type RunningProcess } from '@hoptrack/testing/processes';
import type { Benchmark } from './lib/context';
import { ProcessMeter } from './lib/procstat';
import { capacitySummary, compare, compareCapacities, stepSummary, type Section } from './lib/report';
import { describeCapacity, httpStep, measureCapacity, measuredStep, warmUp } from './lib/targets';

/**
 * 1. Gateway hop: the same trivial GET (a service that does nothing,
 * servers/ping.ts) direct, through express-gateway with the product's real
 * places pipeline (request id, CORS, rate limit, proxy), and through a
 * minimal @fastify/http-proxy built only for the comparison. Each proxy is
 * its own process, so its CPU per request is its own. The three climb the
 * same ladder from the same floor. The gateway logs at the stack's level
 * (production's); the ping service, the same upstream on every path, at
 * warn: its request logs would lower the direct figure the hop is divided by,
 * flattering the gateway's share.
 */
const PATH = '/api/bars/ping';
const TARGET_P99_MS = 50;
/** Where all three searches start from: the ladder's 264 rps, well under any of them. */
const FLOOR_RPS = 250;

export const benchGatewayHop: Benchmark = async (ctx) => {
  const started: RunningProcess[] = [];
  try {
    const ping = await startProcess({ name: 'ping service', entry: 'infra/bench/servers/ping.ts', port: await freePort(), env: { LOG_LEVEL: 'warn' } });
    started.push(ping);
    const gateway = await startGateway({
      env: {
        PLACES_SERVICE_URL: ping.url,
        REDIS_URL: ctx.redisUrl,
        LOG_LEVEL: ctx.logLevel,
        WEB_DIST_DIR: '',
        GATEWAY_RATE_LIMIT_MAX: '1000000000',
        GATEWAY_RATE_LIMIT_PREFIX: `${ctx.namespace}:hop:`,
      },
    });
    started.push(gateway);
    const fastify = await startProcess({
      name: 'fastify proxy',
      entry: 'infra/bench/servers/fastify-proxy.ts',
      port: await freePort(),
      env: { UPSTREAM_URL: ping.url },
    });
    started.push(fastify);
    const meter = ProcessMeter.of(started.map((p) => ({ name: p.name === 'gateway' ? 'express-gateway' : p.name, pid: p.child.pid ?? 0 })));

    const targets = [
      ['direct', ping.url],
      ['express-gateway', gateway.url],
      ['fastify proxy', fastify.url],
    ] as const;
    const fixedRate = ctx.smoke ? 20 : 200;
    const results = [];
    for (const [name, origin] of targets) {
      await warmUp(ctx, origin, { request: () => ({ path: PATH }) });
      const fixed = await measuredStep(meter, origin, { rate: fixedRate, seconds: ctx.stepSeconds, request: () => ({ path: PATH }) });
      const search = await measureCapacity(ctx, meter, httpStep(origin, { request: () => ({ path: PATH }) }), { floorRps: FLOOR_RPS, targetP99Ms: TARGET_P99_MS });
      results.push({ name, fixed, search });
      ctx.log(`  ${name}: ${describeCapacity(search)} at p99 ≤ ${TARGET_P99_MS} ms; p99 ${fixed.step.p99.toFixed(2)} ms at ${fixedRate} rps`);
    }
    const [direct, eg, fp] = results as [(typeof results)[number], (typeof results)[number], (typeof results)[number]];
    const section: Section = {
      id: 'gateway-hop',
      title: 'Gateway hop',
      comparisons: [
        compareCapacities({
          measure: `Trivial GET through express-gateway, rps at p99 ≤ ${TARGET_P99_MS} ms`,
          value: eg.search,
          reference: 'the same GET direct to the service',
          referenceValue: direct.search,
        }),
        compareCapacities({
          measure: `Trivial GET through a minimal @fastify/http-proxy, rps at p99 ≤ ${TARGET_P99_MS} ms`,
          value: fp.search,
          reference: 'the same GET direct to the service',
          referenceValue: direct.search,
        }),
        compare({
          measure: `p99 through express-gateway at ${fixedRate} rps`,
          value: eg.fixed.step.p99,
          unit: 'ms',
          reference: 'direct at the same rate',
          referenceValue: direct.fixed.step.p99,
          note: `added p99: ${(eg.fixed.step.p99 - direct.fixed.step.p99).toFixed(2)} ms`,
        }),
        compare({
          measure: `p99 through the Fastify proxy at ${fixedRate} rps`,
          value: fp.fixed.step.p99,
          unit: 'ms',
          reference: 'direct at the same rate',
          referenceValue: direct.fixed.step.p99,
          note: `added p99: ${(fp.fixed.step.p99 - direct.fixed.step.p99).toFixed(2)} ms`,
        }),
      ],
      costs: results.flatMap((r) => r.search.median.costs.map((c) => ({ at: `hop via ${r.name} at ${r.search.rps} rps`, ...c }))),
      details: Object.fromEntries(results.map((r) => [r.name, { atFixedRate: stepSummary(r.fixed.step), capacity: capacitySummary(r.search) }])),
    };
    return section;
  } finally {
    await Promise.all(started.map((p) => p.stop()));
  }
};
