import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { AuthDialogProvider } from '../components/auth-dialog/AuthDialogProvider';
import { BottomNav } from '../components/BottomNav';
import { LoadingState } from '../components/LoadingState';
import { Header } from '../components/header/Header';
import { Toaster } from '../components/Toaster';
import { VerifyEmailBanner } from '../components/VerifyEmailBanner';
import { useAuth } from '../lib/auth';
import { useLiveMessaging } from '../lib/live';
import { useChallengeToasts } from '../lib/useChallengeToasts';

/**
 * The shell around every route: header, the screen, the bottom bar (signed
 * in), dialog and toasts; while signed in, the one live messaging stream
 * and the toasts of challenge notifications it brings.
 */
export function AppLayout() {
  const { isAuthenticated, user } = useAuth();
  useLiveMessaging(user?.id ?? null);
  useChallengeToasts(user?.id ?? null);
  return (
    <AuthDialogProvider>
      <div className={`app${isAuthenticated ? ' app--signed-in' : ''}`}>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <Header />
        <main id="main" className="main">
          {user && !user.isEmailVerified && <VerifyEmailBanner />}
          {/* Screens are lazy chunks (router.tsx): the header and bottom bar stay while one loads. */}
          <Suspense fallback={<LoadingState />}>
            <Outlet />
          </Suspense>
        </main>
        {isAuthenticated && <BottomNav />}
      </div>
      <Toaster />
    </AuthDialogProvider>
  );
}
