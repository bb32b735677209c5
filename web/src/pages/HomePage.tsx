import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { LoadingState } from '../components/LoadingState';
import { useAuth } from '../lib/auth';
import { feedQuery } from '../lib/sessionsApi';
import { FeedPage } from './FeedPage';
import { WelcomePage } from './WelcomePage';

/** `/`: the welcome page for visitors, the activity feed once signed in. */
export function HomePage() {
  const { isAuthenticated, isLoading } = useAuth();
  const queryClient = useQueryClient();
  // A stored token most likely still holds: fetch the feed (default filter) while /api/me is
  // answering rather than after it. If the token turns out stale, the 401 is simply dropped.
  useEffect(() => {
    if (isLoading) void queryClient.prefetchInfiniteQuery(feedQuery('all'));
  }, [isLoading, queryClient]);
  if (isLoading) return <LoadingState />;
  return isAuthenticated ? <FeedPage /> : <WelcomePage />;
}
