import type { ReactNode } from 'react';
import { useAuth } from '../lib/auth';
import { useAuthDialog } from './auth-dialog/AuthDialogProvider';
import { LoadingState } from './LoadingState';
import { PageHeader } from './PageHeader';

/**
 * Signed-in-only screens: signed-out visitors get a 'Sign in to continue' panel instead, on the same path
 * (signing in there shows the screen they were on), with why the server signed them out if it did.
 */
export function RequireAuth({ title, children }: { title: string; children: ReactNode }) {
  const { isAuthenticated, isLoading, signedOutNotice } = useAuth();
  const { openAuthDialog } = useAuthDialog();
  if (isLoading) return <LoadingState />;
  if (isAuthenticated) return children;
  return (
    <div className="page page--narrow">
      <PageHeader title={title} />
      <section className="card signin-panel" aria-labelledby="signin-panel-title">
        <h2 id="signin-panel-title">Sign in to continue</h2>
        {signedOutNotice && (
          <p className="signin-panel__notice" role="alert">
            {signedOutNotice}
          </p>
        )}
        <p>You need to be signed in to see {title}.</p>
        <div className="button-row">
          <button type="button" className="button button--primary" onClick={() => openAuthDialog('login')}>
            Sign In
          </button>
          <button type="button" className="button button--ghost" onClick={() => openAuthDialog('register')}>
            Create an account
          </button>
        </div>
      </section>
    </div>
  );
}
