import { startGateway } from '@hoptrack/testing/gateway';
import { freePort, startProcess, type RunningProcess } from '@hoptrack/testing/processes';
import type { Benchmark } from './lib/context';
import { ProcessMeter } from './lib/procstat';
import { capacitySummary, compare, stepSummary, type Section } from './lib/report';
import { measuredCapacity, measuredStep, warmUp } from './lib/targets';

/**
 * 1. Gateway hop: the same trivial GET (a service that does nothing,
 * servers/ping.ts) direct, through express-gateway with the product's real
 * places pipeline (request id, CORS, rate limit, proxy), and through a
 * minimal @fastify/http-proxy built only for the comparison. Each proxy is
 * its own process, so its CPU per request is its own.
 */
const PATH = '/api/bars/ping';
const TARGET_P99_MS = 50;

export const benchGatewayHop: Benchmark = async (ctx) => {
  const started: RunningProcess[] = [];
  try {
    const ping = await startProcess({ name: 'ping service', entry: 'infra/bench/servers/ping.ts', port: await freePort(), env: { LOG_LEVEL: 'warn' } });
    started.push(ping);
    const gateway = await startGateway({
      env: {
        PLACES_SERVICE_URL: ping.url,
        REDIS_URL: ctx.redisUrl,
        LOG_LEVEL: 'warn',
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
    const rates = ctx.rates(250, 25000);
    const fixedRate = ctx.smoke ? 20 : 200;
    const results = [];
    for (const [name, origin] of targets) {
      await warmUp(ctx, origin, { request: () => ({ path: PATH }) });
      const fixed = await measuredStep(meter, origin, { rate: fixedRate, seconds: ctx.stepSeconds, request: () => ({ path: PATH }) });
      const search = await measuredCapacity(meter, origin, { rates, seconds: ctx.stepSeconds, targetP99Ms: TARGET_P99_MS, request: () => ({ path: PATH }) });
      results.push({ name, fixed, search });
      ctx.log(`  ${name}: ${search.capacity.sustainedRps} rps at p99 ≤ ${TARGET_P99_MS} ms; p99 ${fixed.step.p99.toFixed(2)} ms at ${fixedRate} rps`);
    }
    const [direct, eg, fp] = results as [(typeof results)[number], (typeof results)[number], (typeof results)[number]];
    const section: Section = {
      id: 'gateway-hop',
      title: 'Gateway hop',
      comparisons: [
        compare({
          measure: `Trivial GET through express-gateway, rps at p99 ≤ ${TARGET_P99_MS} ms`,
          value: eg.search.capacity.sustainedRps,
          unit: 'rps',
          reference: 'the same GET direct to the service',
          referenceValue: direct.search.capacity.sustainedRps,
        }),
        compare({
          measure: `Trivial GET through a minimal @fastify/http-proxy, rps at p99 ≤ ${TARGET_P99_MS} ms`,
          value: fp.search.capacity.sustainedRps,
          unit: 'rps',
          reference: 'the same GET direct to the service',
          referenceValue: direct.search.capacity.sustainedRps,
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
      costs: results.flatMap((r) => r.search.costs.map((c) => ({ at: `hop via ${r.name} at ${r.search.capacity.sustainedRps} rps`, ...c }))),
      details: Object.fromEntries(results.map((r) => [r.name, { atFixedRate: stepSummary(r.fixed.step), capacity: capacitySummary(r.search.capacity) }])),
    };
    return section;
  } finally {
    await Promise.all(started.map((p) => p.stop()));
  }
};
