import { takeEarlyResponse } from '../lib/earlyRequests';
import { readStoredToken } from '../lib/tokenStorage';
import { apiErrorOf } from './errors';
import { routes } from './routes.gen';
import type { Client, ContractOf, Endpoint, EndpointOf, RequestOptions, Result, Route, ServiceKey } from './types';
import { fillUrl, type UrlParts } from './url';

/**
 * The one way the web talks to /api (spec section 7, issue 37): every call
 * names a contract of proto's tables — `api.sessions.like({ params: { id } })`
 * — and gets the OK answer typed by it. A JSON body goes as JSON, a
 * multipart form or raw bytes as they are; the stored token rides along as a
 * Bearer header; cookies are always included. A write carries an
 * Idempotency-Key and is sent again, with the same key, when no answer came or
 * the answer was 502/503/504 (issue 38). Any other answer throws an ApiError. A GET that the early script already started with the same token
 * (lib/earlyRequests.ts) takes that answer instead of asking again.
 */

/** A call's argument as the client reads it at run time (the types in ./types.ts say which parts a contract takes). */
interface CallParts extends UrlParts, RequestOptions {
  readonly body?: unknown;
  readonly form?: FormData;
  readonly bytes?: Blob;
}

/** Makes the request and hands back the OK response; an ApiError for any other. */
async function send(route: Route, parts: CallParts = {}): Promise<Response> {
  const url = fillUrl(route, parts);
  const token = readStoredToken();
  if (route.method === 'GET') {
    const early = await takeEarlyResponse(url, token);
    if (early) return okOrThrow(early);
  }
  const headers = new Headers(parts.headers);
  if (token) headers.set('Authorization', `Bearer ${token}`);

  let body: BodyInit | undefined;
  if (parts.form) body = parts.form;
  else if (parts.bytes) body = parts.bytes;
  else if (parts.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(parts.body);
  }

  if (route.method === 'GET') {
    // Reads are retried by TanStack Query (the queries' own retry): one try here.
    return okOrThrow(await fetch(url, { method: route.method, headers, body, credentials: 'include', signal: parts.signal, cache: parts.cache }));
  }
  // A write is one person's action: one Idempotency-Key for it, kept across its retries, so a
  // retry whose first try did reach the server answers that try's answer instead of writing twice.
  headers.set('Idempotency-Key', newIdempotencyKey());
  for (let attempt = 0; ; attempt += 1) {
    let res: Response;
    try {
      res = await fetch(url, { method: route.method, headers, body, credentials: 'include', signal: parts.signal, cache: parts.cache });
    } catch (err) {
      // No answer (the connection dropped, the phone lost signal): send it again, unless the caller gave up.
      if (parts.signal?.aborted || attempt >= WRITE_RETRIES.length) throw err;
      await pause(WRITE_RETRIES[attempt]);
      continue;
    }
    if (!RETRIED_STATUSES.has(res.status) || attempt >= WRITE_RETRIES.length || parts.signal?.aborted) return okOrThrow(res);
    await pause(WRITE_RETRIES[attempt]);
  }
}

/** The pauses before a write's retries (issue 38): about 3.5 s in all, then the error is shown. */
const WRITE_RETRIES = [500, 1000, 2000] as const;
/** Answers that say "try again": the gateway had no service to ask, or the service a dependency. */
const RETRIED_STATUSES = new Set([502, 503, 504]);
const pause = (ms: number | undefined) => new Promise((resolve) => setTimeout(resolve, ms));

/** 128 random bits as hex: crypto.getRandomValues works on plain http too, where randomUUID does not. */
function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

async function okOrThrow(res: Response): Promise<Response> {
  if (res.ok) return res;
  throw await apiErrorOf(res);
}

/** An OK answer's body: nothing for a 204, else its JSON. */
async function bodyOf(res: Response): Promise<unknown> {
  return res.status === 204 ? null : res.json();
}

/** The query key of a read of `service.name`: `[service, name]`, then the params and query that tell one read from another. */
function keyOf(service: ServiceKey, name: string, parts?: UrlParts): readonly unknown[] {
  const { params, query } = parts ?? {};
  if (params === undefined && query === undefined) return [service, name];
  return [service, name, { ...(params === undefined ? {} : { params }), ...(query === undefined ? {} : { query }) }];
}

function endpoint<R extends Route>(service: ServiceKey, name: string, route: R): EndpointOf<R> {
  // The answer is the contract's response: the client trusts the server's word rather than parse
  // it (parsing needs the zod schemas, which the first screen must not load), as any typed fetch
  // does. Hence the one assertion, from the JSON to the contract's type.
  const read = async (response: Response) => (await bodyOf(response)) as Result<ContractOf<R>>;
  const call = async (parts?: CallParts) => read(await send(route, parts));
  const methods = {
    method: route.method,
    path: route.path,
    response: (parts?: CallParts) => send(route, parts),
    withResponse: async (parts?: CallParts) => {
      const response = await send(route, parts);
      return { data: await read(response), response };
    },
    url: (parts?: UrlParts) => fillUrl(route, parts),
    key: (parts?: UrlParts) => keyOf(service, name, parts),
  };
  // The loose parts above are what the contract's types (./types.ts) let callers pass.
  return Object.assign(call, methods) as EndpointOf<R>;
}

function serviceClient<S extends ServiceKey>(service: S): Client[S] {
  const table: Readonly<Record<string, Route>> = routes[service];
  const client: Record<string, Endpoint<unknown>> = {};
  for (const [name, route] of Object.entries(table)) client[name] = endpoint(service, name, route);
  return client as Client[S];
}

/** Every contract the browser can reach, callable: `api.<service>.<contract name>(...)`. */
export const api: Client = {
  auth: serviceClient('auth'),
  socialGraph: serviceClient('socialGraph'),
  media: serviceClient('media'),
  places: serviceClient('places'),
  sessions: serviceClient('sessions'),
  messaging: serviceClient('messaging'),
  notifications: serviceClient('notifications'),
  challenges: serviceClient('challenges'),
};
