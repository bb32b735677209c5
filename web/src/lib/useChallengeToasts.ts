import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Notification } from '@hoptrack/proto';
import { useEffect, useEffectEvent, useRef } from 'react';
import { refreshChallenges } from './challengesApi';
import { notificationsApi, unreadNotificationsQuery } from './notificationsApi';
import { useToast, type ToastInput } from './toast';

/** Newest inbox entries read when the count rises: one rise is one or a few new entries, never more. */
const NEWEST_ENTRIES = 5;

/** The toast of a challenge entry, or null for any other kind. */
function toastOf(entry: Notification): ToastInput | null {
  if (entry.kind === 'challenge.completed') {
    const title = entry.target.type === 'challenge' ? entry.target.title : null;
    return title ? { title: `Challenge completed: ${title}` } : { title: 'Challenge completed', description: entry.text };
  }
  if (entry.kind === 'challenge.invited') return { title: entry.text };
  return null;
}

/**
 * Toasts a completed challenge or a friend's invitation as it happens, on
 * any screen. The live stream only carries the unread count (lib/live.ts
 * sets it): each time it goes up, the newest entries are read and each
 * unread challenge entry is toasted once per entry id (a regrouped entry
 * keeps its id, so it is not toasted again). The challenge reads are
 * refetched too, so an open /challenges shows the card completed or the new
 * invitation. Mounted once, in the app shell.
 */
export function useChallengeToasts(viewerId: string | null): void {
  const queryClient = useQueryClient();
  const toast = useToast();
  const unread = useQuery({ ...unreadNotificationsQuery(), enabled: viewerId !== null });
  const count = viewerId === null ? undefined : unread.data?.count;
  const previous = useRef<number | undefined>(undefined);
  const toasted = useRef(new Set<string>());

  const showNew = useEffectEvent(async (viewer: string) => {
    const entries = await notificationsApi.newest(NEWEST_ENTRIES);
    let changed = false;
    for (const entry of entries) {
      const input = entry.read || toasted.current.has(entry.id) ? null : toastOf(entry);
      if (!input) continue;
      toasted.current.add(entry.id);
      changed = true;
      toast(input);
    }
    if (changed) await refreshChallenges(queryClient, viewer);
  });

  useEffect(() => {
    // Another person signing in on this tab starts afresh (declared first: it runs before the count is compared).
    previous.current = undefined;
    toasted.current = new Set();
  }, [viewerId]);

  useEffect(() => {
    const before = previous.current;
    previous.current = count;
    // The first count of a sign-in is what was already there: only a rise after it is news.
    if (viewerId === null || count === undefined || before === undefined || count <= before) return;
    showNew(viewerId).catch(() => undefined);
  }, [viewerId, count]);
}
