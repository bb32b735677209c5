import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { SigningInState } from '../components/RequireAuth';
import { useAuth } from '../lib/auth';
import { FEED_ROOT, feedQuery } from '../lib/sessionsApi';
import { FeedPage } from './FeedPage';
import { WelcomePage } from './WelcomePage';

/** `/`: the welcome page for visitors, the activity feed once signed in. */
export function HomePage() {
  const { isAuthenticated, isLoading, isUnreachable } = useAuth();
  const queryClient = useQueryClient();
  // A stored token most likely still holds: fetch the feed (default filter) while /api/me is
  // answering rather than after it. If the token turns out stale, the 401 is simply dropped.
  useEffect(() => {
    if (isLoading) void queryClient.prefetchInfiniteQuery(feedQuery('all'));
  }, [isLoading, queryClient]);
  // Hoptrack did not answer: that feed call failed too, or will. Forgotten, so the feed asks afresh once /api/me answers
  // (the list shows a failure of the prefetch instead of asking again).
  useEffect(() => {
    if (isUnreachable) queryClient.removeQueries({ queryKey: FEED_ROOT });
  }, [isUnreachable, queryClient]);
  if (isLoading) return <SigningInState />;
  return isAuthenticated ? <FeedPage /> : <WelcomePage />;
}
