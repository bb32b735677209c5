import { allContracts, DEFAULT_BODY_LIMIT, type Method, type RouteContract } from '@hoptrack/proto';

/**
 * The gateway's routing, derived from the contract table (proto/src/contracts)
 * instead of written beside it: each service's apiEndpoint is exactly its
 * contracts' paths and methods, so a path no contract names reaches no
 * service (the `unknownApi` pipeline answers 404), and a new contract is
 * routed the moment it exists. `internal` contracts are never routed.
 */

/** An express-gateway apiEndpoint entry: Express path templates with the methods they take. */
export interface ApiEndpointEntry {
  paths: string[];
  methods: Method[];
}

/** The live stream has an endpoint of its own, so its hour-long requests stay out of the messaging route's latency figures. */
export const LIVE_ENDPOINT = 'messaging-live';

/** Routed contracts: everything the gateway exposes. */
export function routedContracts(contracts: readonly RouteContract[] = allContracts()): RouteContract[] {
  return contracts.filter((contract) => contract.access.level !== 'internal');
}

/** The apiEndpoint a contract belongs to: its service's, or the live stream's. */
export function endpointOf(contract: RouteContract): string {
  return contract.stream ? LIVE_ENDPOINT : contract.service;
}

/**
 * `apiEndpoints` for gateway.config: one per service (plus the live
 * stream), each path listed once with every method it takes.
 */
export function apiEndpointsFromContracts(contracts: readonly RouteContract[] = allContracts()): Record<string, ApiEndpointEntry[]> {
  const byEndpoint = new Map<string, Map<string, Set<Method>>>();
  for (const contract of routedContracts(contracts)) {
    const endpoint = endpointOf(contract);
    const paths = byEndpoint.get(endpoint) ?? new Map<string, Set<Method>>();
    byEndpoint.set(endpoint, paths);
    const methods = paths.get(contract.path) ?? new Set<Method>();
    paths.set(contract.path, methods);
    methods.add(contract.method);
  }
  // The live stream's endpoint is mounted first: Express takes the first match, and its
  // literal path (/api/messages/events) is also a match of messaging's /api/messages/:otherUserId.
  const ordered = [...byEndpoint].sort(([a], [b]) => Number(b === LIVE_ENDPOINT) - Number(a === LIVE_ENDPOINT));
  return Object.fromEntries(
    ordered.map(([endpoint, paths]) => [endpoint, [...paths].map(([path, methods]) => ({ paths: [path], methods: [...methods].sort() }))]),
  );
}

/** The catch-all endpoint of gateway.config.yml: /api paths no contract names, answered 404 by the gateway. */
export const UNKNOWN_API_ENDPOINT = 'unknownApi';

interface LoadedGatewayConfig {
  apiEndpoints?: Record<string, unknown> | null;
  pipelines?: Record<string, { apiEndpoints?: string[] } | undefined> | null;
}

/**
 * Puts the derived endpoints into express-gateway's loaded configuration,
 * before its catch-all (Express mounts them in this order), and checks that
 * every endpoint has a pipeline and every pipeline's endpoints exist: a
 * contract of a service with no pipeline would be routed nowhere.
 */
export function routeByContracts(config: LoadedGatewayConfig, contracts: readonly RouteContract[] = allContracts()): Record<string, ApiEndpointEntry[]> {
  const derived = apiEndpointsFromContracts(contracts);
  const unknownApi = config.apiEndpoints?.[UNKNOWN_API_ENDPOINT];
  if (!unknownApi) throw new Error(`gateway.config.yml: the ${UNKNOWN_API_ENDPOINT} endpoint (the catch-all) is missing`);
  const piped = new Set(Object.values(config.pipelines ?? {}).flatMap((pipeline) => pipeline?.apiEndpoints ?? []));
  const unpiped = Object.keys(derived).filter((name) => !piped.has(name));
  const unknown = [...piped].filter((name) => name !== UNKNOWN_API_ENDPOINT && !(name in derived));
  if (unpiped.length > 0 || unknown.length > 0) {
    throw new Error(
      `gateway.config.yml and the contract table disagree: ${[
        ...unpiped.map((name) => `contracts of ${name} have no pipeline`),
        ...unknown.map((name) => `pipeline endpoint ${name} has no contracts`),
      ].join('; ')}`,
    );
  }
  config.apiEndpoints = { ...derived, [UNKNOWN_API_ENDPOINT]: unknownApi };
  return derived;
}

/**
 * The body limit of the contract a request matched (Express's `req.route`
 * is the contract's path inside a pipeline), or the JSON default.
 */
export function bodyLimitLookup(contracts: readonly RouteContract[] = allContracts()): (method: string, path: string | undefined) => number {
  const limits = new Map(routedContracts(contracts).map((contract) => [`${contract.method} ${contract.path}`, contract.bodyLimit]));
  return (method, path) => (path === undefined ? DEFAULT_BODY_LIMIT : (limits.get(`${method} ${path}`) ?? DEFAULT_BODY_LIMIT));
}
