import { useQuery, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { PRESENCE_IDS_MAX } from '@hoptrack/proto/constants';
import type { PresenceEntry } from '@hoptrack/proto';
import { useMemo } from 'react';
import { api } from '../api';
import { relativeTime } from './format';

/**
 * Presence (issue 25, item 1): who of the people on screen is online. One
 * query per set of ids (GET /api/presence?ids=…, at most 100 a call); the
 * server answers only the friends the viewer may see, so anyone absent shows
 * no dot and no last seen. The live stream's `presence` events patch every
 * query holding that person, and each `ready` refetches them all.
 */
export const PRESENCE_ROOT = api.messaging.presence.key();
/** The key of one set of ids: the sorted ids joined with commas, as `?ids=` carries them. */
const presenceKey = (idsKey: string) => api.messaging.presence.key({ query: { ids: idsKey } });

/** The ids a presence query asked about, read back from its key. */
function idsOfKey(key: QueryKey): string[] {
  const parts: unknown = key[2];
  if (typeof parts !== 'object' || parts === null || !('query' in parts)) return [];
  const { query } = parts;
  if (typeof query !== 'object' || query === null || !('ids' in query)) return [];
  return typeof query.ids === 'string' ? query.ids.split(',') : [];
}

async function fetchPresence(ids: readonly string[]): Promise<PresenceEntry[]> {
  const calls: Array<Promise<PresenceEntry[]>> = [];
  for (let i = 0; i < ids.length; i += PRESENCE_IDS_MAX) {
    const chunk = ids.slice(i, i + PRESENCE_IDS_MAX);
    calls.push(api.messaging.presence({ query: { ids: chunk.join(',') } }));
  }
  return (await Promise.all(calls)).flat();
}

/**
 * Presence pushed by the live stream since its last `ready`, by user id. A
 * new friend's presence is pushed at once (issue 40, item 8), maybe before
 * the list showing them asks the server, whose answer may not know the
 * friendship yet: an answer that leaves a pushed person out takes the pushed
 * entry. Forgotten on every `ready` and when a friendship ends.
 */
const pushed = new Map<string, PresenceEntry>();

export function forgetPushedPresence(userIds?: readonly string[]): void {
  if (!userIds) pushed.clear();
  else for (const id of userIds) pushed.delete(id);
}

async function presenceOf(ids: readonly string[]): Promise<PresenceEntry[]> {
  const answer = await fetchPresence(ids);
  const answered = new Set(answer.map((entry) => entry.userId));
  return [...answer, ...ids.flatMap((id) => (answered.has(id) ? [] : (pushed.get(id) ?? [])))];
}

/** The presence of `ids` the viewer may see, by user id (empty while loading or on error: no dots rather than an error). */
export function usePresence(ids: readonly string[]): ReadonlyMap<string, PresenceEntry> {
  const idsKey = [...new Set(ids)].sort().join(',');
  const query = useQuery({
    queryKey: presenceKey(idsKey),
    queryFn: () => presenceOf(idsKey.split(',')),
    enabled: idsKey !== '',
  });
  return useMemo(() => new Map((query.data ?? []).map((entry) => [entry.userId, entry])), [query.data]);
}

/** A live `presence` event: every query that asked about the person takes the new state. */
export function applyPresence(queryClient: QueryClient, entry: PresenceEntry): void {
  pushed.set(entry.userId, entry);
  for (const [key, data] of queryClient.getQueriesData<PresenceEntry[]>({ queryKey: PRESENCE_ROOT })) {
    if (!data || !idsOfKey(key).includes(entry.userId)) continue;
    queryClient.setQueryData<PresenceEntry[]>(key, [...data.filter((e) => e.userId !== entry.userId), entry]);
  }
}

/** After a reconnect: events may have been missed, so every presence on screen is asked again. */
export function refreshPresence(queryClient: QueryClient): Promise<unknown> {
  return queryClient.invalidateQueries({ queryKey: PRESENCE_ROOT });
}

/** "Last seen 5 min ago", "Last seen yesterday": the app's one relative time (format.ts relativeTime) after "Last seen". */
export function lastSeenLabel(lastSeenAt: string, now: number = Date.now()): string {
  const ago = relativeTime(lastSeenAt, now);
  return `Last seen ${ago === 'Just now' || ago === 'Yesterday' ? ago.toLowerCase() : ago}`;
}
