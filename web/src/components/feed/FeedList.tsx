import { useInfiniteQuery } from '@tanstack/react-query';
import type { FeedFilter } from '@hoptrack/proto';
import { startTransition, Suspense, useEffect, useState } from 'react';
import { lazyNamed } from '../../lib/lazyNamed';
import { feedQuery, feedSessions } from '../../lib/sessionsApi';
import { EmptyState } from '../EmptyState';
import { LoadMoreButton } from '../LoadMoreButton';
import { RefreshFailed } from '../RefreshFailed';
import { ListError } from '../social/UserList';
import { FEED_SKELETON_COUNT, FeedSkeleton } from './FeedSkeleton';
import { SessionCard } from './SessionCard';

/**
 * The cards the list first renders, as many as its skeleton (what a screen
 * shows of the feed at first); the rest of the page follows in a transition
 * right after, so the first cards are painted without waiting for the others.
 */
export const FIRST_RENDER_CARDS = FEED_SKELETON_COUNT;

/** Only an empty feed offers people to follow: their chunk is not the first screen's. */
const PeopleToFollow = lazyNamed(() => import('./PeopleToFollow'), 'PeopleToFollow');

interface FeedListProps {
  filter: FeedFilter;
  onLogSession: () => void;
}

/**
 * The feed for one filter, newest first, a page at a time: 3 skeleton cards
 * while the first page loads, an error with a retry, the empty state, or the
 * cards and 'Load More Activities' while the server has a next page. The
 * first render with cards shows FIRST_RENDER_CARDS of them. A refresh that
 * fails (a write's refetch while offline) keeps the cards, with a note.
 */
export function FeedList({ filter, onLogSession }: FeedListProps) {
  // The home page prefetches the feed while /api/me answers: if that call failed, mounting the
  // list must show the failure, not send the call again (spec section 9: queries are not retried).
  const feed = useInfiniteQuery({ ...feedQuery(filter), retryOnMount: false });
  const sessions = feedSessions(feed.data);
  const [firstCardsOnly, setFirstCardsOnly] = useState(true);
  const hasCards = sessions.length > 0;
  useEffect(() => {
    // The first cards are committed: every card from now on, in a transition that does not hold up their paint.
    if (hasCards && firstCardsOnly) startTransition(() => setFirstCardsOnly(false));
  }, [hasCards, firstCardsOnly]);

  if (feed.isPending) return <FeedSkeleton />;
  if (feed.isLoadingError) {
    return <ListError text="Failed to fetch sessions" onRetry={() => void feed.refetch()} />;
  }
  if (sessions.length === 0) {
    return (
      <>
        <EmptyState title="No activities yet" text="Be the first to log a beer session!">
          <button type="button" className="button button--primary" onClick={onLogSession}>
            Log Your First Session
          </button>
        </EmptyState>
        <Suspense fallback={null}>
          <PeopleToFollow />
        </Suspense>
      </>
    );
  }
  return (
    <>
      {feed.isRefetchError && <RefreshFailed onRetry={() => void feed.refetch()} />}
      <ul className="session-list" aria-label="Activities">
        {(firstCardsOnly ? sessions.slice(0, FIRST_RENDER_CARDS) : sessions).map((session) => (
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
