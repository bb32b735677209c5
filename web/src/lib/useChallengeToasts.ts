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
 * The entries a rise of the count brought, newest first. A new or regrouped
 * entry moves to the top of the inbox, so they are the unread entries newer
 * than the newest one an earlier read saw; on the first read there is no such
 * mark, and they are the newest `rise` unread ones. An entry that was already
 * unread before (a challenge completed while the person was away) is not news:
 * toasting it named the wrong challenge (issue 40).
 */
function newsOf(entries: readonly Notification[], rise: number, seenUpTo: number | undefined): Notification[] {
  const unread = entries.filter((entry) => !entry.read);
  return seenUpTo === undefined ? unread.slice(0, rise) : unread.filter((entry) => Date.parse(entry.createdAt) > seenUpTo);
}

/**
 * Toasts a completed challenge or a friend's invitation as it happens, on
 * any screen. The live stream only carries the unread count (lib/live.ts
 * sets it): each time it goes up, the newest entries are read and the newest
 * challenge entry among those the rise brought (newsOf) is toasted, once per
 * entry id (a regrouped entry keeps its id, so it is not toasted again). One
 * toast shows at a time, so only the newest is shown: toasting several in a
 * row left the oldest on screen. The challenge reads are refetched too, so
 * an open /challenges shows the card completed or the new invitation.
 * Mounted once, in the app shell.
 */
export function useChallengeToasts(viewerId: string | null): void {
  const queryClient = useQueryClient();
  const toast = useToast();
  const unread = useQuery({ ...unreadNotificationsQuery(), enabled: viewerId !== null });
  const count = viewerId === null ? undefined : unread.data?.count;
  const previous = useRef<number | undefined>(undefined);
  const toasted = useRef(new Set<string>());
  /** The newest entry time (server clock) a read has seen. */
  const seenUpTo = useRef<number | undefined>(undefined);

  const showNew = useEffectEvent(async (viewer: string, rise: number) => {
    const entries = await notificationsApi.newest(NEWEST_ENTRIES);
    const news = newsOf(entries, rise, seenUpTo.current).filter((entry) => !toasted.current.has(entry.id));
    const newest = entries[0];
    if (newest) seenUpTo.current = Math.max(seenUpTo.current ?? 0, Date.parse(newest.createdAt));
    const challengeNews = news.filter((entry) => toastOf(entry) !== null);
    for (const entry of challengeNews) toasted.current.add(entry.id);
    const input = challengeNews[0] && toastOf(challengeNews[0]);
    if (!input) return;
    toast(input);
    await refreshChallenges(queryClient, viewer);
  });

  useEffect(() => {
    // Another person signing in on this tab starts afresh (declared first: it runs before the count is compared).
    previous.current = undefined;
    toasted.current = new Set();
    seenUpTo.current = undefined;
  }, [viewerId]);

  useEffect(() => {
    const before = previous.current;
    previous.current = count;
    // The first count of a sign-in is what was already there: only a rise after it is news.
    if (viewerId === null || count === undefined || before === undefined || count <= before) return;
    showNew(viewerId, count - before).catch(() => undefined);
  }, [viewerId, count]);
}
