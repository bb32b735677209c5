import { createBrowserRouter, type RouteObject } from 'react-router';
import { RequireAuth } from '../components/RequireAuth';
import { ComingSoonPage } from '../pages/ComingSoonPage';
import { ForgotPasswordPage } from '../pages/ForgotPasswordPage';
import { HomePage } from '../pages/HomePage';
import { NotFoundPage } from '../pages/NotFoundPage';
import { PrivacyPage } from '../pages/PrivacyPage';
import { ResetPasswordPage } from '../pages/ResetPasswordPage';
import { RouteErrorPage } from '../pages/RouteErrorPage';
import { AppLayout } from './AppLayout';

/** Signed-in-only screens that later issues build; until then they say so. */
const OWN_PROFILE = { title: 'My Profile', description: 'Your picture, bio, weekly stats and your beer sessions.' };
const PUBLIC_PROFILE = { title: 'Profile', description: "Another drinker's profile, stats and sessions." };

const COMING_SOON: readonly { path: string; title: string; description: string }[] = [
  { path: 'profile', ...OWN_PROFILE },
  { path: 'my-profile', ...OWN_PROFILE },
  { path: 'profile/:username', ...PUBLIC_PROFILE },
  { path: 'users/:userId', ...PUBLIC_PROFILE },
  { path: 'users/:userId/followers', title: 'Followers', description: 'Who follows this drinker, and whom they follow.' },
  { path: 'friends', title: 'Friends', description: 'Find friends, answer friend requests and see your crew.' },
  { path: 'friends-enhanced', title: 'Friends', description: 'Pin your favourite friends and manage blocked users.' },
  { path: 'discovery', title: 'Discovery', description: 'Bars, restaurants and beers near you.' },
  { path: 'messages', title: 'Messages', description: 'Chat with your friends.' },
  { path: 'dm', title: 'Direct Messages', description: 'Your direct message threads.' },
  { path: 'photos', title: 'Photos', description: 'Your photo albums from sessions and nights out.' },
  { path: 'search', title: 'Search', description: 'Search for other drinkers by name or username.' },
];

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'forgot-password', element: <ForgotPasswordPage /> },
      { path: 'reset-password', element: <ResetPasswordPage /> },
      {
        path: 'privacy',
        element: (
          <RequireAuth title="Privacy Settings">
            <PrivacyPage />
          </RequireAuth>
        ),
      },
      ...COMING_SOON.map(({ path, title, description }) => ({
        path,
        element: (
          <RequireAuth title={title}>
            <ComingSoonPage title={title} description={description} />
          </RequireAuth>
        ),
      })),
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
