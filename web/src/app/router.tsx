import type { ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RequireAuth } from '../components/RequireAuth';
import { DiscoveryPage } from '../pages/DiscoveryPage';
import { DmPage } from '../pages/DmPage';
import { FollowersPage } from '../pages/FollowersPage';
import { ForgotPasswordPage } from '../pages/ForgotPasswordPage';
import { FriendsEnhancedPage } from '../pages/FriendsEnhancedPage';
import { FriendsPage } from '../pages/FriendsPage';
import { HomePage } from '../pages/HomePage';
import { MessagesPage } from '../pages/MessagesPage';
import { MyProfilePage } from '../pages/MyProfilePage';
import { NotFoundPage } from '../pages/NotFoundPage';
import { PhotosPage } from '../pages/PhotosPage';
import { PrivacyPage } from '../pages/PrivacyPage';
import { ResetPasswordPage } from '../pages/ResetPasswordPage';
import { RouteErrorPage } from '../pages/RouteErrorPage';
import { SearchPage } from '../pages/SearchPage';
import { UserProfilePage } from '../pages/UserProfilePage';
import { AppLayout } from './AppLayout';

/** Signed-in-only screens that are built: path, the title the sign-in panel shows, the page. */
const SIGNED_IN: readonly { path: string; title: string; element: ReactNode }[] = [
  { path: 'profile', title: 'My Profile', element: <MyProfilePage /> },
  { path: 'my-profile', title: 'My Profile', element: <MyProfilePage /> },
  { path: 'privacy', title: 'Privacy Settings', element: <PrivacyPage /> },
  { path: 'friends', title: 'Friends', element: <FriendsPage /> },
  { path: 'friends-enhanced', title: 'Friends', element: <FriendsEnhancedPage /> },
  { path: 'search', title: 'Search', element: <SearchPage /> },
  { path: 'photos', title: 'Photos', element: <PhotosPage /> },
  { path: 'discovery', title: 'Discovery', element: <DiscoveryPage /> },
  { path: 'profile/:username', title: 'Profile', element: <UserProfilePage /> },
  { path: 'users/:userId', title: 'Profile', element: <UserProfilePage /> },
  { path: 'users/:userId/followers', title: 'Followers', element: <FollowersPage /> },
  { path: 'messages', title: 'Messages', element: <MessagesPage /> },
  { path: 'dm', title: 'Direct Messages', element: <DmPage /> },
];

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'forgot-password', element: <ForgotPasswordPage /> },
      { path: 'reset-password', element: <ResetPasswordPage /> },
      ...SIGNED_IN.map(({ path, title, element }) => ({
        path,
        element: <RequireAuth title={title}>{element}</RequireAuth>,
      })),
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
