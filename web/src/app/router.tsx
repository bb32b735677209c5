import { Component, type ReactNode } from 'react';
import { useLocation, useRoutes, type RouteObject } from 'react-router';
import { RequireAuth } from '../components/RequireAuth';
import { HomePage } from '../pages/HomePage';
import { NotFoundPage } from '../pages/NotFoundPage';
import { RouteErrorPage } from '../pages/RouteErrorPage';
import { lazyNamed } from '../lib/lazyNamed';
import { AppLayout } from './AppLayout';

// Every screen but `/` is its own chunk; AppLayout's Suspense shows the loading state meanwhile.

const AccountPage = lazyNamed(() => import('../pages/AccountPage'), 'AccountPage');
const ChallengePage = lazyNamed(() => import('../pages/ChallengePage'), 'ChallengePage');
const ChallengesPage = lazyNamed(() => import('../pages/ChallengesPage'), 'ChallengesPage');
const DiscoveryPage = lazyNamed(() => import('../pages/DiscoveryPage'), 'DiscoveryPage');
const DmPage = lazyNamed(() => import('../pages/DmPage'), 'DmPage');
const FollowersPage = lazyNamed(() => import('../pages/FollowersPage'), 'FollowersPage');
const ForgotPasswordPage = lazyNamed(() => import('../pages/ForgotPasswordPage'), 'ForgotPasswordPage');
const FriendsEnhancedPage = lazyNamed(() => import('../pages/FriendsEnhancedPage'), 'FriendsEnhancedPage');
const VerifyEmailPage = lazyNamed(() => import('../pages/VerifyEmailPage'), 'VerifyEmailPage');
const FriendsPage = lazyNamed(() => import('../pages/FriendsPage'), 'FriendsPage');
const MessagesPage = lazyNamed(() => import('../pages/MessagesPage'), 'MessagesPage');
const NotificationsPage = lazyNamed(() => import('../pages/NotificationsPage'), 'NotificationsPage');
const MyProfilePage = lazyNamed(() => import('../pages/MyProfilePage'), 'MyProfilePage');
const PhotosPage = lazyNamed(() => import('../pages/PhotosPage'), 'PhotosPage');
const PrivacyPage = lazyNamed(() => import('../pages/PrivacyPage'), 'PrivacyPage');
const ResetPasswordPage = lazyNamed(() => import('../pages/ResetPasswordPage'), 'ResetPasswordPage');
const SessionPage = lazyNamed(() => import('../pages/SessionPage'), 'SessionPage');
const UnsubscribePage = lazyNamed(() => import('../pages/UnsubscribePage'), 'UnsubscribePage');
const SearchPage = lazyNamed(() => import('../pages/SearchPage'), 'SearchPage');
const UserProfilePage = lazyNamed(() => import('../pages/UserProfilePage'), 'UserProfilePage');

/** Signed-in-only screens that are built: path, the title the sign-in panel shows, the page. */
const SIGNED_IN: readonly { path: string; title: string; element: ReactNode }[] = [
  { path: 'profile', title: 'My Profile', element: <MyProfilePage /> },
  { path: 'my-profile', title: 'My Profile', element: <MyProfilePage /> },
  { path: 'privacy', title: 'Privacy Settings', element: <PrivacyPage /> },
  { path: 'account', title: 'Account Settings', element: <AccountPage /> },
  { path: 'friends', title: 'Friends', element: <FriendsPage /> },
  { path: 'friends-enhanced', title: 'Friends', element: <FriendsEnhancedPage /> },
  { path: 'search', title: 'Search', element: <SearchPage /> },
  { path: 'photos', title: 'Photos', element: <PhotosPage /> },
  { path: 'discovery', title: 'Discovery', element: <DiscoveryPage /> },
  // A bar's own address (issue 40): Discovery with the bar open over it. The same element at the same place in the tree,
  // so going between the two keeps the list, its search and its scroll as they were.
  { path: 'bars/:barId', title: 'Discovery', element: <DiscoveryPage /> },
  { path: 'profile/:username', title: 'Profile', element: <UserProfilePage /> },
  { path: 'users/:userId', title: 'Profile', element: <UserProfilePage /> },
  { path: 'users/:userId/followers', title: 'Followers', element: <FollowersPage /> },
  { path: 'messages', title: 'Messages', element: <MessagesPage /> },
  { path: 'dm', title: 'Direct Messages', element: <DmPage /> },
  { path: 'notifications', title: 'Notifications', element: <NotificationsPage /> },
  { path: 'sessions/:sessionId', title: 'Session', element: <SessionPage /> },
  { path: 'challenges', title: 'Challenges', element: <ChallengesPage /> },
  { path: 'challenges/:challengeId', title: 'Challenge', element: <ChallengePage /> },
];

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'forgot-password', element: <ForgotPasswordPage /> },
      { path: 'reset-password', element: <ResetPasswordPage /> },
      { path: 'verify-email', element: <VerifyEmailPage /> },
      { path: 'unsubscribe', element: <UnsubscribePage /> },
      ...SIGNED_IN.map(({ path, title, element }) => ({
        path,
        element: <RequireAuth title={title}>{element}</RequireAuth>,
      })),
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/**
 * The screens, inside App's BrowserRouter. A declarative router, not a data
 * router (createBrowserRouter): the app has no loaders or actions, and the
 * data router's code (55 of the signed-in first screen's 407 kB) and its
 * set-up were about an eighth of that screen's start (docs/benchmarks.md).
 * What its errorElement did, RouteErrorBoundary does.
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  return <RouteErrorBoundary pathname={pathname}>{useRoutes(routes)}</RouteErrorBoundary>;
}

/**
 * A screen that throws while rendering shows RouteErrorPage instead of a
 * blank page, until the next navigation (the back button, say) renders the
 * routes again.
 */
class RouteErrorBoundary extends Component<{ pathname: string; children: ReactNode }, { failedAt: string | null }> {
  override state: { failedAt: string | null } = { failedAt: null };

  static getDerivedStateFromError(): { failedAt: string | null } {
    return { failedAt: window.location.pathname };
  }

  override componentDidUpdate(previous: { pathname: string }) {
    // Coming back to the screen that failed tries it again.
    if (previous.pathname !== this.props.pathname && this.state.failedAt !== null) this.setState({ failedAt: null });
  }

  override render() {
    return this.state.failedAt !== null && this.state.failedAt === this.props.pathname ? <RouteErrorPage /> : this.props.children;
  }
}
