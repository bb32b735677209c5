import { useInfiniteQuery } from '@tanstack/react-query';
import type { FeedFilter } from '@hoptrack/proto';
import { feedQuery, feedSessions } from '../../lib/sessionsApi';
import { EmptyState } from '../EmptyState';
import { LoadMoreButton } from '../LoadMoreButton';
import { ListError } from '../social/UserList';
import { FeedSkeleton } from './FeedSkeleton';
import { SessionCard } from './SessionCard';

interface FeedListProps {
  filter: FeedFilter;
  onLogSession: () => void;
}

/**
 * The feed for one filter, newest first, a page at a time: 3 skeleton cards
 * while the first page loads, an error with a retry, the empty state, or the
 * cards and 'Load More Activities' while the server has a next page.
 */
export function FeedList({ filter, onLogSession }: FeedListProps) {
  // The home page prefetches the feed while /api/me answers: if that call failed, mounting the
  // list must show the failure, not send the call again (spec section 9: queries are not retried).
  const feed = useInfiniteQuery({ ...feedQuery(filter), retryOnMount: false });

  if (feed.isPending) return <FeedSkeleton />;
  if (feed.isError && !feed.isFetchNextPageError) {
    return <ListError text="Failed to fetch sessions" onRetry={() => void feed.refetch()} />;
  }
  const sessions = feedSessions(feed.data);
  if (sessions.length === 0) {
    return (
      <EmptyState title="No activities yet" text="Be the first to log a beer session!">
        <button type="button" className="button button--primary" onClick={onLogSession}>
          Log Your First Session
        </button>
      </EmptyState>
    );
  }
  return (
    <>
      <ul className="session-list" aria-label="Activities">
        {sessions.map((session) => (
          <SessionCard key={session.id} session={session} />
        ))}
      </ul>
      {feed.isFetchNextPageError && (
        <p className="feed-error" role="alert">
          Failed to fetch sessions
        </p>
      )}
      <LoadMoreButton pages={feed} label="Load More Activities" centered />
    </>
  );
}
