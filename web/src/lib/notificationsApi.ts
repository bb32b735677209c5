import { queryOptions, type InfiniteData, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { MarkReadBody, Notification, NotificationKind, NotificationSettingsBody, UnreadCount } from '@hoptrack/proto';
import { api } from '../api';
import { cursorPage, type CursorPage } from './cursorPages';
import { sessionPath } from './sessionLinks';

/**
 * Notifications (issue 22): the bell's count, the inbox and the per-kind
 * settings. Keys are the contracts' own: the inbox pages travel by the
 * `x-next-cursor` header and have their own query fn; NOTIFICATION_READS
 * lists every notification read, to refetch them all.
 */
export const UNREAD_NOTIFICATIONS_KEY = api.notifications.unreadCount.key();
export const NOTIFICATION_SETTINGS_KEY = api.notifications.settings.key();
export const NOTIFICATION_LIST_KEY = api.notifications.list.key();
export const NOTIFICATION_READS: readonly QueryKey[] = [UNREAD_NOTIFICATIONS_KEY, NOTIFICATION_SETTINGS_KEY, NOTIFICATION_LIST_KEY];

export type NotificationListData = InfiniteData<CursorPage<Notification>>;

/** The inbox's filter chips: everything, the unread entries, or the entries of a family of kinds. */
export type NotificationFilter = 'all' | 'unread' | 'friends' | 'activity' | 'messages' | 'challenges';
interface FilterQuery {
  unread?: 'true';
  kind?: string;
}
const kinds = (...names: NotificationKind[]): FilterQuery => ({ kind: names.join(',') });
export const NOTIFICATION_FILTERS: ReadonlyArray<{ id: NotificationFilter; label: string; query?: FilterQuery; empty: string }> = [
  { id: 'all', label: 'All', empty: 'No notifications yet' },
  { id: 'unread', label: 'Unread', query: { unread: 'true' }, empty: 'No unread notifications' },
  { id: 'friends', label: 'Friends', query: kinds('friend.requested', 'friend.accepted'), empty: 'No friend notifications' },
  { id: 'activity', label: 'Likes & comments', query: kinds('session.liked', 'session.reacted', 'session.commented', 'comment.followed'), empty: 'No likes or comments' },
  { id: 'messages', label: 'Messages', query: kinds('message.received'), empty: 'No message notifications' },
  { id: 'challenges', label: 'Challenges', query: kinds('challenge.completed', 'challenge.invited'), empty: 'No challenge notifications' },
];

/** The cached pages of one filter's list; every filter's key starts with NOTIFICATION_LIST_KEY (the unfiltered list's own). */
export function notificationListKey(query: FilterQuery | undefined): QueryKey {
  return query ? api.notifications.list.key({ query }) : NOTIFICATION_LIST_KEY;
}

export const notificationsApi = {
  page: (cursor?: string, filter?: FilterQuery) => cursorPage(api.notifications.list.withResponse({ query: { ...filter, cursor } })),
  /** Puts a read entry back among the unread (and in the bell's count). */
  markUnread: (id: string) => api.notifications.markUnread({ params: { id } }),
  /** The newest `limit` entries, read or not. */
  newest: (limit: number) => api.notifications.list({ query: { limit } }),
  markRead: (body: MarkReadBody) => api.notifications.markRead({ body }),
  updateSettings: (body: NotificationSettingsBody) => api.notifications.updateSettings({ body }),
  /** The mail's unsubscribe link: no sign-in, the token is the proof. */
  unsubscribe: (token: string) => api.notifications.unsubscribe({ body: { token } }),
};

/** The bell's count, which the live stream keeps current. */
export const unreadNotificationsQuery = () =>
  queryOptions({ queryKey: UNREAD_NOTIFICATIONS_KEY, queryFn: () => api.notifications.unreadCount() });
/** The in-app and e-mail settings per kind. */
export const notificationSettingsQuery = () =>
  queryOptions({ queryKey: NOTIFICATION_SETTINGS_KEY, queryFn: () => api.notifications.settings() });

/** Kinds whose entry opens the session at its comments (expanded, the newest in view). */
const COMMENT_KINDS: readonly Notification['kind'][] = ['session.commented', 'comment.followed'];

/**
 * Where an entry leads: a session's activity to that session (at its comments
 * when the entry holds a comment), a challenge's
 * (a completion, an invitation) to that challenge, a message to
 * the conversation with its sender, a friend request to the friends screen's requests
 * (where it is answered), an accepted one to the new friend's profile.
 */
export function notificationHref(item: Pick<Notification, 'kind' | 'kinds' | 'target'>): string {
  const { target } = item;
  if (target.type === 'session') return sessionPath(target.id, { comments: item.kinds.some((kind) => COMMENT_KINDS.includes(kind)) });
  if (target.type === 'challenge') return `/challenges/${encodeURIComponent(target.id)}`;
  if (item.kind === 'message.received') return `/messages?user=${encodeURIComponent(target.id)}`;
  if (item.kind === 'friend.requested') return '/friends?tab=requests';
  return `/users/${encodeURIComponent(target.id)}`;
}

/** The live channel's new count: shown at once; the list refetches, since an entry changed. */
export function applyUnreadCount(queryClient: QueryClient, count: number): Promise<unknown> {
  queryClient.setQueryData<UnreadCount>(UNREAD_NOTIFICATIONS_KEY, { count });
  return queryClient.invalidateQueries({ queryKey: NOTIFICATION_LIST_KEY });
}

/** Marks the given cached entries (or all of them) read, or unread (`read` false), in every filter's list, as the server just did. */
export function markCachedRead(queryClient: QueryClient, ids: readonly string[] | 'all', read = true): void {
  const changes = (id: string) => ids === 'all' || ids.includes(id);
  queryClient.setQueriesData<NotificationListData>({ queryKey: NOTIFICATION_LIST_KEY }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({ ...page, items: page.items.map((item) => (changes(item.id) ? { ...item, read } : item)) })),
        }
      : data,
  );
}

/** Refetches every notification read (after a reconnect of the live channel, something may have been missed). */
export function refreshNotifications(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(NOTIFICATION_READS.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
