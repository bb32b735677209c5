import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Notification } from '@hoptrack/proto';
import { listItems } from '../../lib/cursorPages';
import { markCachedRead, NOTIFICATION_LIST_KEY, notificationsApi, UNREAD_NOTIFICATIONS_KEY } from '../../lib/notificationsApi';
import { useToast } from '../../lib/toast';
import { EmptyState } from '../EmptyState';
import { BellIcon } from '../icons';
import { LoadingState } from '../LoadingState';
import { LoadMoreButton } from '../LoadMoreButton';
import { RefreshFailed } from '../RefreshFailed';
import { ListError } from '../social/UserList';
import { NotificationItem } from './NotificationItem';

/**
 * The inbox, newest first, a page at a time, with "Mark all read". Opening
 * an unread entry marks it read on the way to its target. After either write
 * the server's count comes back by the live stream; the cached entries are
 * marked at once and the count refetched meanwhile.
 */
export function NotificationList() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const list = useInfiniteQuery({
    queryKey: NOTIFICATION_LIST_KEY,
    queryFn: ({ pageParam }) => notificationsApi.page(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const markRead = useMutation({
    mutationFn: (ids: readonly string[] | 'all') => notificationsApi.markRead(ids === 'all' ? { all: true } : { ids: [...ids] }),
    onMutate: (ids) => markCachedRead(queryClient, ids),
    onError: () => {
      toast({ title: 'Error', description: 'Failed to mark notifications as read. Please try again.', variant: 'destructive' });
      void queryClient.invalidateQueries({ queryKey: NOTIFICATION_LIST_KEY });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: UNREAD_NOTIFICATIONS_KEY }),
  });

  if (list.isPending) return <LoadingState label="Loading notifications..." />;
  if (list.isLoadingError) return <ListError text="Failed to fetch notifications" onRetry={() => void list.refetch()} />;
  const items = listItems(list.data);
  if (items.length === 0) {
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
      <ul className="notifications__list" aria-label="Notifications">
        {items.map((item) => (
          <NotificationItem key={item.id} item={item} onOpen={open} />
        ))}
      </ul>
      <LoadMoreButton pages={list} label="Load older notifications" centered />
    </section>
  );
}
