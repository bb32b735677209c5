import { allContracts, METHODS, needsToken, SERVICE_NAMES, type Method, type RouteContract } from '@hoptrack/proto';
import { ROUTES_LOG_MESSAGE } from '@hoptrack/runtime';

/**
 * What the security scans walk: the contract table (proto/src/contracts),
 * not the services' source. Every endpoint is there exactly once with its
 * access level, and every service refuses to start with a route outside it
 * (runtime createServer); `crossCheck` holds the table against the route
 * table each running service logged when it started (Fastify's own,
 * recorded by onRoute).
 */

export const VERBS = METHODS;
export type Verb = Method;

export interface TableRoute {
  method: Verb;
  /** Fastify's path template, e.g. /api/sessions/:id/comments/:commentId or /api/media/files/*. */
  template: string;
  contract: RouteContract;
}

export const keyOf = (route: { method: string; template: string }) => `${route.method} ${route.template}`;

/** Every contract, as the scans address it. */
export function tableRoutes(): TableRoute[] {
  return allContracts().map((contract) => ({ method: contract.method, template: contract.path, contract }));
}

/** The routes the gateway exposes: every contract but the internal ones. */
export function apiRoutes(): TableRoute[] {
  return tableRoutes().filter((route) => route.contract.access.level !== 'internal');
}

/** Routes that answer without a bearer token on purpose, each with its contract's reason. */
export function openRoutes(): Map<string, string> {
  const open = new Map<string, string>();
  for (const route of apiRoutes()) {
    const access = route.contract.access;
    if (!needsToken(access)) open.set(keyOf(route), `${access.level}: ${access.reason}`);
  }
  return open;
}

interface LoggedProcess {
  lines: string[];
}

/** `METHOD url contract service.name` entries of the 'routes registered' line a service logs when it listens. */
export function loggedRoutes(proc: LoggedProcess): string[] | undefined {
  for (const line of proc.lines) {
    if (!line.includes(ROUTES_LOG_MESSAGE)) continue;
    try {
      const parsed = JSON.parse(line) as { msg?: string; routes?: unknown };
      if (parsed.msg === ROUTES_LOG_MESSAGE && Array.isArray(parsed.routes)) return parsed.routes.map(String);
    } catch {
      // A line that only mentions the message: not the one.
    }
  }
  return undefined;
}

/**
 * Each process's registered routes against the contracts: a service may
 * register exactly its contracts (and the runtime's health, readiness and
 * metrics); a process that is no service (a worker) only the runtime's; a
 * process that opted out of the contracts (createServer `uncontracted`) only
 * when `uncontracted` names it, with the reason. A registered route outside
 * these, or a contract its service did not register, is a problem.
 */
export function crossCheck(
  processes: Record<string, LoggedProcess>,
  uncontracted: Record<string, string> = {},
): { problems: string[]; registered: number; checked: string[] } {
  const problems: string[] = [];
  let registered = 0;
  const services = new Set<string>(SERVICE_NAMES);
  for (const [name, proc] of Object.entries(processes)) {
    const routes = loggedRoutes(proc);
    if (!routes) {
      problems.push(`${name}: no '${ROUTES_LOG_MESSAGE}' line in its log`);
      continue;
    }
    registered += routes.length;
    const declared = new Map(allContracts().filter((c) => c.service === name).map((c) => [`${c.method} ${c.path}`, `${c.service}.${c.name}`]));
    const seen = new Set<string>();
    for (const entry of routes) {
      const [method, url, origin, contract] = entry.split(' ');
      const key = `${method} ${url}`;
      if (origin === 'runtime') continue;
      if (origin === 'uncontracted' && !services.has(name) && uncontracted[name]) continue;
      if (origin !== 'contract' || declared.get(key) !== contract) problems.push(`${name} registered ${entry}: not one of its contracts`);
      else seen.add(key);
    }
    for (const [key, contract] of declared) if (!seen.has(key)) problems.push(`${name} did not register its contract ${contract} (${key})`);
  }
  const missing = [...services].filter((service) => !(service in processes));
  for (const service of missing) problems.push(`${service}: not among the processes checked`);
  return { problems, registered, checked: Object.keys(processes) };
}
