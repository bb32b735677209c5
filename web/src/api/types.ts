import type { api as contracts, Method } from '@hoptrack/proto';
import type { z } from 'zod';
import type { routes } from './routes.gen';

/**
 * The client's types, read from proto's contract tables with `import type`
 * only: the tables import zod, which the signed-in first screen must not load
 * (web/e2e/speed.test.ts), so at run time the client knows nothing but the
 * generated methods and paths (./routes.gen.ts).
 */

type Contracts = typeof contracts;
export type Routes = typeof routes;
export type ServiceKey = keyof Routes;

/** One generated route: what the client needs at run time to call it. */
export interface Route {
  readonly method: Method;
  readonly path: string;
}

/** The generated route of `service.name`. */
export type RouteAt<S extends ServiceKey, N extends keyof Routes[S]> = Extract<Routes[S][N], Route>;

type AnyContract = { [S in keyof Contracts]: Contracts[S][keyof Contracts[S]] }[keyof Contracts];

/** The contract behind a generated route: the one with its method and path (a pair names one endpoint). */
export type ContractOf<R extends Route> = Extract<AnyContract, { readonly method: R['method']; readonly path: R['path'] }>;

/** A route or contract as `METHOD path`, the pair that names one endpoint. */
type Line<C> = C extends { readonly method: infer M extends string; readonly path: infer P extends string } ? `${M} ${P}` : never;
type ContractLine = { [S in keyof Contracts]: { [N in keyof Contracts[S]]: Line<Contracts[S][N]> }[keyof Contracts[S]] }[keyof Contracts];
type RouteLine = { [S in ServiceKey]: { [N in keyof Routes[S]]: Line<Routes[S][N]> }[keyof Routes[S]] }[ServiceKey];
type Assert<T extends true> = T;
/** Fails to compile, naming the route, when routes.gen.ts holds a method and path no contract has: run `npm run generate:web-routes`. */
export type RoutesMatchContracts = Assert<[Exclude<RouteLine, ContractLine>] extends [never] ? true : Exclude<RouteLine, ContractLine>>;

type SchemaAt<C, K extends string> = C extends { readonly [P in K]: infer T } ? T : never;
type Input<T> = T extends z.ZodType ? z.input<T> : never;
type Output<T> = T extends z.ZodType ? z.output<T> : never;

/** A part of a call: absent when the contract has none, optional when it may be left out, else required. */
type Part<K extends string, T> = [T] extends [never]
  ? unknown
  : undefined extends T
    ? { readonly [P in K]?: T }
    : {} extends T
      ? { readonly [P in K]?: T }
      : { readonly [P in K]: T };

export type ParamsIn<C> = Input<SchemaAt<C, 'params'>>;
export type QueryIn<C> = Input<SchemaAt<C, 'query'>>;
export type BodyIn<C> = Input<SchemaAt<C, 'body'>>;

/** A non-JSON body: the form of a multipart upload, the bytes of a raw one. */
type UploadPart<C> = C extends { readonly upload: { readonly kind: 'multipart' } }
  ? { readonly form: FormData }
  : C extends { readonly upload: { readonly kind: 'raw' } }
    ? { readonly bytes: Blob }
    : unknown;

/** What a call may add to the request itself. */
export interface RequestOptions {
  readonly signal?: AbortSignal;
  readonly headers?: Readonly<Record<string, string>>;
  readonly cache?: RequestCache;
}

/** Where a call goes: the path's parameters and the query. */
export type UrlArgs<C> = Part<'params', ParamsIn<C>> & Part<'query', QueryIn<C>>;
/** A whole call: where it goes, its body, and the request options. */
export type Args<C> = UrlArgs<C> & Part<'body', BodyIn<C>> & UploadPart<C> & RequestOptions;
/** The parts a query key is told apart by, any of them (a key with fewer is a prefix of the keys with more). */
export type KeyArgs<C> = Part<'params', Partial<ParamsIn<C>>> & Part<'query', Partial<QueryIn<C>>>;

/** A call's argument list: none needed when every part of it is optional. */
export type ArgsList<A> = {} extends A ? [args?: A] : [args: A];

type OkStatus = 200 | 201 | 202 | 203;
type OkSchema<C> = C extends { readonly responses: infer R } ? { [K in keyof R]: K extends OkStatus ? R[K] : never }[keyof R] : never;
/** What an OK answer holds: its schema's output (a union when statuses differ), null when the contract declares none (204). */
export type Result<C> = [OkSchema<C>] extends [never] ? null : Output<OkSchema<C>>;

/** One contract, callable: `api.sessions.like({ params: { id } })`. */
export interface Endpoint<C> {
  /** Calls it: the OK answer's body, typed by the contract; an ApiError for any other answer. */
  (...args: ArgsList<Args<C>>): Promise<Result<C>>;
  /** The body and the Response it came in (its status, its headers: a page's `x-next-cursor`). */
  withResponse(...args: ArgsList<Args<C>>): Promise<{ data: Result<C>; response: Response }>;
  /** The OK Response, its body unread (image bytes, a download, an event stream). */
  response(...args: ArgsList<Args<C>>): Promise<Response>;
  /** The URL it calls: the path with its parameters filled, and the query. */
  url(...args: ArgsList<UrlArgs<C>>): string;
  /**
   * A query key of this read: `[service, name]`, then `{ params, query }`
   * when given. The shorter key is a prefix of the longer ones, so it
   * addresses every cached read of the contract.
   */
  key(args?: KeyArgs<C>): readonly unknown[];
  readonly method: Method;
  readonly path: string;
}

export type EndpointOf<R extends Route> = Endpoint<ContractOf<R>>;

/** The client: every generated route, by service and name, typed by its contract. */
export type Client = { readonly [S in ServiceKey]: { readonly [N in keyof Routes[S]]: EndpointOf<RouteAt<S, N>> } };
