import { LoadingState } from '../components/LoadingState';
import { useAuth } from '../lib/auth';
import { FeedPage } from './FeedPage';
import { WelcomePage } from './WelcomePage';

/** `/`: the welcome page for visitors, the activity feed once signed in. */
export function HomePage() {
  const { isAuthenticated, isLoading } = useAuth();
  if (isLoading) return <LoadingState />;
  return isAuthenticated ? <FeedPage /> : <WelcomePage />;
}
