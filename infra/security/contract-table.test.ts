import { allContracts, SERVICE_NAMES } from '@hoptrack/proto';
import { ROUTES_LOG_MESSAGE } from '@hoptrack/runtime';
import { describe, expect, it } from 'vitest';
import { crossCheck } from './contract-table';

/**
 * The cross-check the revocation scan runs against the real stack
 * (revocation.test.ts), here on made-up logs: it must see a route outside
 * the contracts, a contract not registered, and a process that logged none.
 */

const runtimeRoutes = ['GET /healthz runtime', 'GET /readyz runtime', 'GET /metrics runtime'];

/** A process whose log has the route line the runtime writes when it listens. */
const logged = (routes: string[]) => ({ lines: [JSON.stringify({ level: 30, msg: ROUTES_LOG_MESSAGE, routes })] });

/** Every service registering exactly its contracts, as a healthy stack does. */
function healthyStack(): Record<string, { lines: string[] }> {
  return Object.fromEntries(
    SERVICE_NAMES.map((service) => [
      service,
      logged([...runtimeRoutes, ...allContracts().filter((c) => c.service === service).map((c) => `${c.method} ${c.path} contract ${c.service}.${c.name}`)]),
    ]),
  );
}

describe('the cross-check of registered routes against the contracts', () => {
  it('finds nothing in a stack that registered exactly its contracts, and workers with only the runtime routes', () => {
    const stack = { ...healthyStack(), 'sessions-fanout': logged(runtimeRoutes) };
    expect(crossCheck(stack).problems).toEqual([]);
  });

  it('finds a route registered outside the contracts, a contract not registered, and a service that logged nothing', () => {
    const stack = healthyStack();
    const places = stack.places?.lines[0] ?? '';
    const routes = (JSON.parse(places) as { routes: string[] }).routes.filter((r) => !r.includes('places.bars'));
    stack.places = logged([...routes, 'GET /api/secret uncontracted']);
    stack.media = { lines: ['{"msg":"listening"}'] };
    expect(crossCheck(stack).problems.sort()).toEqual(
      ["media: no 'routes registered' line in its log", 'places did not register its contract places.bars (GET /api/bars)', 'places registered GET /api/secret uncontracted: not one of its contracts'].sort(),
    );
  });

  it('lets only a named non-service process keep routes of its own', () => {
    const board = logged([...runtimeRoutes, 'GET /queues uncontracted']);
    expect(crossCheck({ ...healthyStack(), 'queue-board': board }).problems).toEqual(['queue-board registered GET /queues uncontracted: not one of its contracts']);
    expect(crossCheck({ ...healthyStack(), 'queue-board': board }, { 'queue-board': 'an operator tool' }).problems).toEqual([]);
  });
});
