import type { FeedFilter } from '@hoptrack/proto';
import { FEED_PAGE_DEFAULT } from '@hoptrack/proto/constants';
import { auth, sessions } from '../api/routes.gen';
import { urlOf } from '../api/url';
import { readStoredToken } from './tokenStorage';

/**
 * The GETs a signed-in first load is certain to make — /api/me on every
 * route, and on `/` the feed's first page — started by src/early.ts, a
 * script of its own that index.html runs before the app's JavaScript has
 * even arrived, rather than by the components that need them once they have
 * rendered (the bench's "first feed card", docs/benchmarks.md). The client
 * (src/api) hands such an answer to the first call of exactly the same URL with exactly
 * the same token, once, instead of asking again; a call it does not fit
 * (another URL or token, taken already, too old) makes its own request as
 * before, and so does one whose early request got no answer at all. An HTTP
 * error (a stale token's 401) is the answer, handled as if the call had made it.
 *
 * The early script and the app are separate bundles, each with its own copy
 * of this module: they share the requests through a property of `window`.
 */

/** An early answer older than this is not used: the app took too long to ask, and asks afresh. */
export const EARLY_MAX_AGE_MS = 10_000;

/** The query of one feed page: FeedList's calls and the early request build its URL from it alike. */
export function feedPageQuery(filter: FeedFilter, cursor?: string, limit: number = FEED_PAGE_DEFAULT) {
  return { filter, limit, cursor };
}

/** The URL of one feed page (sessions.feed), as the client calls it. */
export function feedPageUrl(filter: FeedFilter, cursor?: string, limit?: number): string {
  return urlOf(sessions.feed, { query: feedPageQuery(filter, cursor, limit) });
}

/** The URL of the current user (auth.me), as the client calls it. */
export const currentUserUrl = (): string => urlOf(auth.me);

/** What the first load at `path` will GET when signed in: the current user, and the feed's default first page on the home page. */
export function earlyUrls(path: string): string[] {
  return path === '/' ? [currentUserUrl(), feedPageUrl('all')] : [currentUserUrl()];
}

interface EarlyRequest {
  token: string;
  startedAt: number;
  response: Promise<Response>;
}

declare global {
  interface Window {
    /**
     * The early requests not taken yet, by URL: set by src/early.ts, or (empty) by the app
     * when it asks first — the early script is `async` and then starts nothing.
     */
    hoptrackEarlyRequests?: Map<string, EarlyRequest>;
  }
}

/** Starts the early GETs for the current page, when a token is stored and the app has not started without them. */
export function startEarlyRequests(path = window.location.pathname): void {
  if (window.hoptrackEarlyRequests) return;
  const pending = new Map<string, EarlyRequest>();
  window.hoptrackEarlyRequests = pending;
  const token = readStoredToken();
  if (!token) return;
  for (const url of earlyUrls(path)) {
    const response = fetch(url, { headers: { Authorization: `Bearer ${token}` }, credentials: 'include' });
    // Nobody may take it (the app asked for something else): a failure must not surface as an unhandled rejection.
    response.catch(() => undefined);
    pending.set(url, { token, startedAt: performance.now(), response });
  }
}

/** The requests the early script started; from now on it starts none (it has run, or it comes too late). */
function earlyRequests(): Map<string, EarlyRequest> {
  return (window.hoptrackEarlyRequests ??= new Map());
}

/** Whether an early GET of `url` is waiting to be taken. */
export function hasEarlyRequest(url: string): boolean {
  return earlyRequests().has(url);
}

/**
 * The early answer to a GET of `url` made with `token`, taken once; undefined
 * when there is none that fits. It resolves to undefined when the early
 * request got no answer (the caller then asks itself).
 */
export function takeEarlyResponse(url: string, token: string | null): Promise<Response | undefined> | undefined {
  const pending = earlyRequests();
  const early = pending.get(url);
  if (!early) return undefined;
  pending.delete(url);
  if (token !== early.token || performance.now() - early.startedAt > EARLY_MAX_AGE_MS) return undefined;
  return early.response.catch(() => undefined);
}
