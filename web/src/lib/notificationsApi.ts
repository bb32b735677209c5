import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type {
  MarkReadBody,
  MarkReadResponse,
  MessageResponse,
  Notification,
  NotificationSettings,
  NotificationSettingsBody,
  UnreadCount,
  UnsubscribeBody,
} from '@hoptrack/proto';
import { apiRequest } from './api';
import { cursorPage, type CursorPage } from './cursorPages';

/**
 * Notifications (issue 22): the bell's count, the inbox and the per-kind
 * settings. Keys are URL parts below `['/api/notifications']`: the count and
 * the settings are plain URL keys read by the default query fn; the inbox
 * pages travel by the `x-next-cursor` header and have their own query fn, so
 * the root as a prefix refetches every notification read.
 */
export const NOTIFICATIONS_ROOT = ['/api/notifications'] as const;
export const UNREAD_NOTIFICATIONS_KEY = [...NOTIFICATIONS_ROOT, 'unread-count'] as const;
export const NOTIFICATION_SETTINGS_KEY = [...NOTIFICATIONS_ROOT, 'settings'] as const;
export const NOTIFICATION_LIST_KEY = [...NOTIFICATIONS_ROOT, 'list'] as const;

export type NotificationListData = InfiniteData<CursorPage<Notification>>;

export const notificationsApi = {
  page: (cursor?: string) => cursorPage<Notification>('/api/notifications', cursor),
  markRead: (body: MarkReadBody) => apiRequest<MarkReadResponse>('POST', '/api/notifications/read', body),
  updateSettings: (body: NotificationSettingsBody) => apiRequest<NotificationSettings>('PUT', '/api/notifications/settings', body),
  /** The mail's unsubscribe link: no sign-in, the token is the proof. */
  unsubscribe: (token: string) => apiRequest<MessageResponse>('POST', '/api/notifications/unsubscribe', { token } satisfies UnsubscribeBody),
};

/**
 * Where an entry leads: a session's activity to that session, a challenge's
 * (a completion, an invitation) to that challenge, a message to
 * the conversation with its sender, a friend request to the friends screen's requests
 * (where it is answered), an accepted one to the new friend's profile.
 */
export function notificationHref(item: Pick<Notification, 'kind' | 'target'>): string {
  const { target } = item;
  if (target.type === 'session') return `/sessions/${encodeURIComponent(target.id)}`;
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

/** Marks the given cached entries (or all of them) read, as the server just did. */
export function markCachedRead(queryClient: QueryClient, ids: readonly string[] | 'all'): void {
  const isRead = (id: string) => ids === 'all' || ids.includes(id);
  queryClient.setQueryData<NotificationListData>(NOTIFICATION_LIST_KEY, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({ ...page, items: page.items.map((item) => (isRead(item.id) ? { ...item, read: true } : item)) })),
        }
      : data,
  );
}

/** Refetches every notification read (after a reconnect of the live channel, something may have been missed). */
export function refreshNotifications(queryClient: QueryClient): Promise<unknown> {
  return queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_ROOT });
}
