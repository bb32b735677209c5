import type { ReactNode } from 'react';
import { useAuth } from '../lib/auth';
import { useAuthDialog } from './auth-dialog/AuthDialogProvider';
import { LoadingState } from './LoadingState';
import { PageHeader } from './PageHeader';

/** The text while a stored sign-in cannot be confirmed because Hoptrack does not answer (issue 40). */
export const UNREACHABLE_TEXT = "Can't reach Hoptrack — retrying";

/** While the stored sign-in is being confirmed: loading, or, once a try failed, that Hoptrack cannot be reached and is tried again. */
export function SigningInState() {
  const { isUnreachable } = useAuth();
  return <LoadingState label={isUnreachable ? UNREACHABLE_TEXT : undefined} />;
}

/**
 * Signed-in-only screens: signed-out visitors get a 'Sign in to continue' panel instead, on the same path
 * (signing in there shows the screen they were on), with why the server signed them out if it did.
 */
export function RequireAuth({ title, children }: { title: string; children: ReactNode }) {
  const { isAuthenticated, isLoading, signedOutNotice } = useAuth();
  const { openAuthDialog } = useAuthDialog();
  if (isLoading) return <SigningInState />;
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
