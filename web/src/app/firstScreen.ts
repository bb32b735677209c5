import type { QueryClient } from '@tanstack/react-query';
import { currentUserQuery } from '../lib/auth';
import { currentUserUrl, feedPageUrl, hasEarlyRequest } from '../lib/earlyRequests';
import { feedQuery } from '../lib/sessionsApi';

/**
 * How long the first render waits for the signed-in first screen's data. A
 * longer wait shows the loading state (and the feed's skeleton) meanwhile,
 * as without the wait.
 */
export const FIRST_RENDER_WAIT_MS = 200;

/**
 * Fills the cache with the answers main.tsx asked for before React started
 * (lib/earlyRequests.ts): the current user, and on `/` the feed's first page. Resolves
 * once both are in, or after FIRST_RENDER_WAIT_MS, whichever is first, so the
 * first render can show the feed itself rather than a loading state and then,
 * one render and one layout later, the cards. Nothing is waited for without
 * a stored token (no early requests).
 */
export async function primeFirstScreen(queryClient: QueryClient): Promise<void> {
  const reads: Promise<void>[] = [];
  // The queries take the early answers through the client (src/api), as their first calls would.
  // A failure is kept in the cache as the query's error, for the screen to show (or retry) as usual.
  if (hasEarlyRequest(currentUserUrl())) reads.push(queryClient.prefetchQuery({ ...currentUserQuery, retry: false }));
  if (hasEarlyRequest(feedPageUrl('all'))) reads.push(queryClient.prefetchInfiniteQuery(feedQuery('all')));
  if (reads.length === 0) return;
  let timer: number | undefined;
  await Promise.race([Promise.all(reads), new Promise<void>((resolve) => (timer = window.setTimeout(resolve, FIRST_RENDER_WAIT_MS)))]);
  window.clearTimeout(timer);
}
