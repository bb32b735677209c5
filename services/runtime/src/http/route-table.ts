import type { FastifyInstance } from 'fastify';
import { ContractMismatchError } from './routes';

/** A route as Fastify itself registered it (onRoute): what the scans hold the contract table against. */
export interface RegisteredRoute {
  method: string;
  url: string;
  /** `service.name` of the contract it was mounted from; absent for a route registered by hand. */
  contract?: string;
  /** The runtime's own health, readiness and metrics routes. */
  runtime: boolean;
}

const tables = new WeakMap<object, RegisteredRoute[]>();

/** Records every route the app registers, in any scope; call before the first route. */
export function trackRoutes(app: FastifyInstance): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  tables.set(app, routes);
  app.addHook('onRoute', (options) => {
    const contract = options.config?.contract;
    for (const method of [options.method].flat()) {
      // Fastify adds a HEAD twin to every GET; it is the GET's route.
      if (method === 'HEAD' && routes.some((r) => r.url === options.url && r.method === 'GET')) continue;
      routes.push({
        method,
        url: options.url,
        ...(typeof contract === 'string' ? { contract } : {}),
        runtime: options.config?.runtimeRoute === true,
      });
    }
  });
  return routes;
}

/** The routes an app registered so far (all of them once it is ready). */
export function registeredRoutes(app: object): readonly RegisteredRoute[] {
  return tables.get(app) ?? [];
}

/** Deny by default: a route registered outside the contracts is a route nobody reviewed, so the server does not start. */
export function assertContracted(routes: readonly RegisteredRoute[]): void {
  const stray = routes.filter((route) => !route.runtime && route.contract === undefined);
  if (stray.length > 0) {
    throw new ContractMismatchError(`routes outside the contracts: ${stray.map((r) => `${r.method} ${r.url}`).join(', ')}`);
  }
}

/** The message of the one log line a process writes with its route table when it listens. */
export const ROUTES_LOG_MESSAGE = 'routes registered';

/** `METHOD url` and where it comes from: `contract service.name`, `runtime`, or `uncontracted`. */
export function describeRoute(route: RegisteredRoute): string {
  return `${route.method} ${route.url} ${route.contract ? `contract ${route.contract}` : route.runtime ? 'runtime' : 'uncontracted'}`;
}
