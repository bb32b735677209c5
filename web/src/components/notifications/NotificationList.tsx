import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Notification } from '@hoptrack/proto';
import { listItems } from '../../lib/cursorPages';
import {
  markCachedRead,
  NOTIFICATION_FILTERS,
  NOTIFICATION_LIST_KEY,
  notificationListKey,
  notificationsApi,
  UNREAD_NOTIFICATIONS_KEY,
  type NotificationFilter,
} from '../../lib/notificationsApi';
import { useToast } from '../../lib/toast';
import { EmptyState } from '../EmptyState';
import { BellIcon } from '../icons';
import { LoadingState } from '../LoadingState';
import { LoadMoreButton } from '../LoadMoreButton';
import { RefreshFailed } from '../RefreshFailed';
import { ListError } from '../social/UserList';
import { useTabParam } from '../Tabs';
import { NotificationItem } from './NotificationItem';

const FILTER_IDS = NOTIFICATION_FILTERS.map((filter) => filter.id);

/**
 * The inbox, newest first, a page at a time, with filter chips (all, unread,
 * a family of kinds; kept in `?tab=`), "Mark all read" and "Mark unread" on
 * each read entry. Opening an unread entry marks it read on the way to its
 * target. After a write the server's count comes back by the live stream;
 * the cached entries are changed at once and the count refetched meanwhile.
 */
export function NotificationList() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [filterId, setFilter] = useTabParam<NotificationFilter>(FILTER_IDS, 'all');
  const filter = NOTIFICATION_FILTERS.find((f) => f.id === filterId) ?? NOTIFICATION_FILTERS[0];
  const list = useInfiniteQuery({
    queryKey: notificationListKey(filter?.query),
    queryFn: ({ pageParam }) => notificationsApi.page(pageParam, filter?.query),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const failed = (what: string) => {
    toast({ title: 'Error', description: `Failed to mark notifications as ${what}. Please try again.`, variant: 'destructive' });
    void queryClient.invalidateQueries({ queryKey: NOTIFICATION_LIST_KEY });
  };
  const markRead = useMutation({
    mutationFn: (ids: readonly string[] | 'all') => notificationsApi.markRead(ids === 'all' ? { all: true } : { ids: [...ids] }),
    onMutate: (ids) => markCachedRead(queryClient, ids),
    onError: () => failed('read'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: UNREAD_NOTIFICATIONS_KEY }),
  });
  const markUnread = useMutation({
    mutationFn: (id: string) => notificationsApi.markUnread(id),
    onMutate: (id) => markCachedRead(queryClient, [id], false),
    onError: () => failed('unread'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: UNREAD_NOTIFICATIONS_KEY }),
  });

  if (list.isPending) return <LoadingState label="Loading notifications..." />;
  if (list.isLoadingError) return <ListError text="Failed to fetch notifications" onRetry={() => void list.refetch()} />;
  const items = listItems(list.data);
  if (items.length === 0 && filterId === 'all') {
    return <EmptyState title="No notifications yet" text="Likes, comments, friend requests and messages for you will show up here." Icon={BellIcon} />;
  }
  const anyUnread = items.some((item) => !item.read);
  const open = (item: Notification) => {
    if (!item.read) markRead.mutate([item.id]);
  };
  return (
    <section className="card notifications" aria-labelledby="notifications-inbox-title">
      <div className="notifications__bar">
        <h2 id="notifications-inbox-title" className="notifications__title">
          Inbox
        </h2>
        <button type="button" className="button button--secondary button--small" disabled={!anyUnread || markRead.isPending} onClick={() => markRead.mutate('all')}>
          Mark all read
        </button>
      </div>
      {list.isRefetchError && <RefreshFailed onRetry={() => void list.refetch()} />}
      <div className="chip-list" role="group" aria-label="Show">
        {NOTIFICATION_FILTERS.map((chip) => (
          <button key={chip.id} type="button" className="chip" aria-pressed={chip.id === filterId} onClick={() => setFilter(chip.id)}>
            {chip.label}
          </button>
        ))}
      </div>
      {items.length === 0 ? (
        <p className="notifications__empty">{filter?.empty}</p>
      ) : (
        <ul className="notifications__list" aria-label="Notifications">
          {items.map((item) => (
            <NotificationItem key={item.id} item={item} onOpen={open} onMarkUnread={(entry) => markUnread.mutate(entry.id)} />
          ))}
        </ul>
      )}
      <LoadMoreButton pages={list} label="Load older notifications" centered />
    </section>
  );
}
