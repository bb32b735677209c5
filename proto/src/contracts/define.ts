import type { ZodType } from 'zod';
import type { Role } from '../roles';

/**
 * A route contract: everything about one HTTP endpoint that is not its
 * handler. The services mount their handlers by these (runtime
 * `mountRoutes`), the gateway routes by them, the web client calls them and
 * the security scans walk them: one declaration, read everywhere.
 */

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type Method = (typeof METHODS)[number];

/** The services behind the gateway: each contract belongs to exactly one. */
export const SERVICE_NAMES = ['auth', 'social-graph', 'media', 'places', 'sessions', 'messaging', 'notifications', 'challenges'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/**
 * Who may call a route. Deny by default: a contract that says nothing is
 * `signed-in`, so forgetting to open a route leaves it closed. Every other
 * level names its reason, read by a reviewer and listed by the scans.
 *
 * - `signed-in`: a valid, current bearer token; the handler gets the identity.
 * - `role`: signed-in, and the person holds the role (an admin holds every
 *   moderator's right); anyone else is answered 403 before the handler runs
 *   (issue 42). The role is read from the service's people table, like the
 *   token version, never from the token.
 * - `public`: anyone (registration, login, the token-carrying mail links).
 * - `signed-link`: the path or query carries a credential the handler checks
 *   (a signed file URL, an upload token); no bearer token.
 * - `internal`: never routed by the gateway; only processes on the internal
 *   network reach it (service-to-service uploads, the token keys).
 */
export type Access =
  | { readonly level: 'signed-in' }
  | { readonly level: 'role'; readonly role: Role }
  | { readonly level: 'public'; readonly reason: string }
  | { readonly level: 'signed-link'; readonly reason: string }
  | { readonly level: 'internal'; readonly reason: string };
export type AccessLevel = Access['level'];

/** The levels a bearer token opens (signed-in, and a role on top of it): every other level names its reason. */
export type TokenAccess = Extract<Access, { readonly level: 'signed-in' | 'role' }>;
export const needsToken = (access: Access): access is TokenAccess => access.level === 'signed-in' || access.level === 'role';

export const signedIn = { level: 'signed-in' } as const satisfies Access;
export const moderatorsOnly = { level: 'role', role: 'moderator' } as const satisfies Access;
export const adminsOnly = { level: 'role', role: 'admin' } as const satisfies Access;
export const publicAccess = (reason: string) => ({ level: 'public', reason }) as const satisfies Access;
export const signedLink = (reason: string) => ({ level: 'signed-link', reason }) as const satisfies Access;
export const internalOnly = (reason: string) => ({ level: 'internal', reason }) as const satisfies Access;

/**
 * The gateway's per-client limit applies to every routed contract
 * (`standard`). `credential` marks the routes where a password or a mailed
 * token is tried: the guessing targets a review and the abuse tests look at
 * first. Where the service keeps attempt limits of its own (login, forgot
 * password, resend verification) they are the handler's.
 */
export type RateLimitClass = 'standard' | 'credential';

/** A body that is not JSON: multipart form parts, or the raw bytes of one file. */
export type Upload =
  | {
      readonly kind: 'multipart';
      /** @fastify/multipart's limits: bytes per file, counts of files, fields and parts. */
      readonly limits: { readonly fileSize: number; readonly files: number; readonly fields: number; readonly parts?: number };
    }
  | { readonly kind: 'raw' };

/** JSON bodies: a few kilobytes of text at most, far under this. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

export interface RouteSpec {
  readonly method: Method;
  /** Fastify's (and Express's) template: `/api/sessions/:id/comments/:commentId`, a trailing `*` for a key with slashes. */
  readonly path: string;
  readonly summary: string;
  readonly access?: Access;
  readonly params?: ZodType;
  readonly query?: ZodType;
  /** A JSON body, validated; absent = none is read. */
  readonly body?: ZodType;
  /** A non-JSON body (exclusive with `body`). */
  readonly upload?: Upload;
  /** The answers by status; a status absent here has no body (204) or is the error body. */
  readonly responses?: { readonly [status: number]: ZodType };
  /** An answer that stays open (server-sent events): the handler takes the raw response over. */
  readonly stream?: boolean;
  /**
   * A page of a list (its 200 is an array, its query takes a `cursor`): the
   * handler returns `{ items, next }`, and the runtime answers the items with
   * the next page's cursor in the `x-next-cursor` header (NEXT_CURSOR_HEADER).
   */
  readonly paged?: true;
  readonly rateLimit?: RateLimitClass;
  /** Largest body in bytes, enforced by the gateway and the service (413): DEFAULT_BODY_LIMIT unless told. */
  readonly bodyLimit?: number;
}

/** The level a spec settles on: the one it names, else signed-in (deny by default); any level for a spec not known yet. */
type AccessOf<S extends RouteSpec> = S extends { readonly access: infer A extends Access }
  ? A
  : S extends { readonly access?: infer A }
    ? Exclude<A, undefined> extends never
      ? typeof signedIn
      : Exclude<A, undefined> & Access
    : typeof signedIn;

/** A contract as the table holds it: its service and name filled in, its access settled. */
export type RouteContract<S extends RouteSpec = RouteSpec> = Omit<S, 'access'> & {
  readonly service: ServiceName;
  readonly name: string;
  readonly access: AccessOf<S>;
  readonly bodyLimit: number;
};

export type RouteTable<T extends Record<string, RouteSpec> = Record<string, RouteSpec>> = {
  readonly [K in keyof T]: RouteContract<T[K]> & { readonly name: K & string };
};

/**
 * One service's contracts, named for the web client (`api.sessions.like`).
 * The `const` parameter keeps every literal (paths, levels) in the types.
 */
export function defineRoutes<const T extends Record<string, RouteSpec>>(service: ServiceName, specs: T): RouteTable<T> {
  const table: Record<string, RouteContract> = {};
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.body && spec.upload) throw new Error(`${service}.${name}: a contract reads a JSON body or an upload, not both`);
    table[name] = {
      ...spec,
      service,
      name,
      access: spec.access ?? signedIn,
      bodyLimit: spec.bodyLimit ?? DEFAULT_BODY_LIMIT,
    } as RouteContract;
  }
  return table as RouteTable<T>;
}

/** Path parameters of a template: `:name` segments and a trailing `*` wildcard. */
export function paramsOf(template: string): string[] {
  return [...template.matchAll(/:([A-Za-z_]\w*)|\*/g)].map((m) => m[1] ?? '*');
}

/** Fills a template's parameters (URL-encoding `:name` values; the wildcard is a key with slashes, kept as is). */
export function fillPath(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/:([A-Za-z_]\w*)|\*/g, (_whole, name: string | undefined) => {
    const value = values[name ?? '*'];
    if (value === undefined) throw new Error(`no value for ${name ?? '*'} in ${template}`);
    return name ? encodeURIComponent(String(value)) : String(value);
  });
}
