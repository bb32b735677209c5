import type { QueryFunction } from '@tanstack/react-query';
import type { ErrorBody } from '@hoptrack/proto';
import { takeEarlyResponse } from './earlyRequests';
import { readStoredToken } from './tokenStorage';

/**
 * The one way the web talks to /api (spec section 7): FormData bodies go as
 * they are, anything else as JSON; the stored token rides along as a Bearer
 * header; cookies are always included. A non-OK answer throws
 * `Error("<status>: <body text or status text>")`.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export async function apiRequest<T>(method: HttpMethod, url: string, body?: unknown): Promise<T> {
  const res = await apiResponse(method, url, body);
  if (res.status === 204) return null as T;
  return (await res.json()) as T;
}

/**
 * The same call, handing back the OK response itself (for answers that carry headers, such as a page cursor).
 * A GET that main.tsx already started with the same token (earlyRequests.ts) takes that answer instead.
 */
export async function apiResponse(method: HttpMethod, url: string, body?: unknown): Promise<Response> {
  const headers = new Headers();
  const token = readStoredToken();
  if (method === 'GET' && body === undefined) {
    const early = await takeEarlyResponse(url, token);
    if (early) {
      await throwIfNotOk(early);
      return early;
    }
  }
  if (token) headers.set('Authorization', `Bearer ${token}`);

  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body;
  } else if (body !== undefined) {
    headers.set('Content-Type', 'application/json');
    payload = JSON.stringify(body);
  }

  const res = await fetch(url, { method, headers, body: payload, credentials: 'include' });
  await throwIfNotOk(res);
  return res;
}

async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = await res.text();
  throw new Error(`${res.status}: ${text || res.statusText}`);
}

/** The HTTP status an `apiRequest` error carries, if it is one. */
export function errorStatus(error: unknown): number | undefined {
  if (!(error instanceof Error)) return undefined;
  const match = /^(\d{3}): /.exec(error.message);
  return match ? Number(match[1]) : undefined;
}

export type ShownError = Pick<ErrorBody, 'message' | 'field'>;

/** `message` (and `field`) of an `apiRequest` error whose body is the shared error JSON. */
export function serverError(error: unknown): ShownError | undefined {
  if (!(error instanceof Error)) return undefined;
  const match = /^\d{3}: ([\s\S]*)$/.exec(error.message);
  if (!match?.[1]) return undefined;
  try {
    return shownError(JSON.parse(match[1]));
  } catch {
    return undefined;
  }
}

/**
 * The two fields of proto's `errorBody` a screen shows, checked by hand: the
 * schema would bring zod (and every schema of the index) into the first
 * screen, which needs none of it (web/e2e/speed.test.ts).
 */
function shownError(body: unknown): ShownError | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { message, field } = body as Record<string, unknown>;
  if (typeof message !== 'string') return undefined;
  if (field === undefined) return { message };
  return typeof field === 'string' ? { message, field } : undefined;
}

/** What a toast shows for a failed call: the server's message, else the screen's fallback. */
export function serverMessage(error: unknown, fallback: string): string {
  return serverError(error)?.message || fallback;
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/** The default cached read: GET to the query key's parts joined with '/'. */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey }) => {
    try {
      return await apiRequest<T>('GET', queryKey.join('/'));
    } catch (error) {
      if (options.on401 === 'returnNull' && errorStatus(error) === 401) return null;
      throw error;
    }
  };
}
