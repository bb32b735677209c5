import type { ArgsList, ContractOf, Route, UrlArgs } from './types';

/**
 * The URL of a call: the route's path with its `:name` parameters filled
 * (URL-encoded) and its `*` wildcard (a key with slashes, kept as it is), then
 * the query in the order given, leaving out what is undefined. No imports
 * but types: the early script (src/early.ts) builds its URLs here too, and a
 * later GET takes an early answer only for exactly the same URL.
 */
export function urlOf<R extends Route>(route: R, ...args: ArgsList<UrlArgs<ContractOf<R>>>): string;
export function urlOf(route: Route, parts?: UrlParts): string {
  return fillUrl(route, parts);
}

/** urlOf as the client calls it, its parts checked by the contract's types before they get here. */
export function fillUrl(route: Route, parts?: UrlParts): string {
  const params = parts?.params ?? {};
  const path = route.path.replace(/:([A-Za-z_]\w*)|\*/g, (_whole, name: string | undefined) => {
    const value = params[name ?? '*'];
    if (value === undefined || value === null) throw new Error(`no value for ${name ?? '*'} in ${route.path}`);
    return name ? encodeURIComponent(String(value)) : String(value);
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(parts?.query ?? {})) {
    if (value !== undefined && value !== null) search.set(name, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** Where a call goes, as the client reads it at run time. */
export interface UrlParts {
  readonly params?: Readonly<Record<string, unknown>>;
  readonly query?: Readonly<Record<string, unknown>>;
}
