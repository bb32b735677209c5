import { Outlet } from 'react-router';
import { AuthDialogProvider } from '../components/auth-dialog/AuthDialogProvider';
import { BottomNav } from '../components/BottomNav';
import { Header } from '../components/header/Header';
import { Toaster } from '../components/Toaster';
import { useAuth } from '../lib/auth';

/** The shell around every route: header, the screen, the bottom bar (signed in), dialog and toasts. */
export function AppLayout() {
  const { isAuthenticated } = useAuth();
  return (
    <AuthDialogProvider>
      <div className={`app${isAuthenticated ? ' app--signed-in' : ''}`}>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <Header />
        <main id="main" className="main">
          <Outlet />
        </main>
        {isAuthenticated && <BottomNav />}
      </div>
      <Toaster />
    </AuthDialogProvider>
  );
}
