import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../api';
import { useAuthDialog } from '../components/auth-dialog/AuthDialogProvider';
import { LoadingState } from '../components/LoadingState';
import { PageHeader } from '../components/PageHeader';
import { useAuth } from '../lib/auth';
import { authApi, CURRENT_USER_KEY } from '../lib/authApi';
import { announceEmailVerified, useResendVerification } from '../lib/emailVerification';

/**
 * `/verify-email?token=`, with the reset page's states: no token → invalid
 * link; verifying; expired/invalid/used → 'Link expired'; then success.
 */
export function VerifyEmailPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  if (!token) {
    return (
      <VerifyNotice title="Invalid verification link">
        <p>This verification link is missing its token. Please request a new one.</p>
        <Home />
      </VerifyNotice>
    );
  }
  return <Verification key={token} token={token} />;
}

function Verification({ token }: { token: string }) {
  const queryClient = useQueryClient();
  const { isAuthenticated, isLoading, user } = useAuth();
  const { openAuthDialog } = useAuthDialog();
  // A query, not a mutation fired from an effect: the token is single-use, and a query runs once
  // per key however often the component mounts (StrictMode mounts twice), and is never retried.
  const verification = useQuery({
    queryKey: [...api.auth.verifyEmail.key(), token],
    queryFn: () => authApi.verifyEmail({ token }),
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });
  const verified = verification.isSuccess;
  useEffect(() => {
    // The banner reads isEmailVerified from the current user: refresh it so the banner goes away.
    // Every other open tab too (issue 40, item 9).
    if (!verified) return;
    void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    announceEmailVerified();
  }, [verified, queryClient]);

  // Who is asking decides the expired link's way out: wait for /api/me as for the link.
  if (verification.isPending || (verification.isError && isLoading)) return <LoadingState label="Verifying your e-mail address..." />;
  if (verification.isError) {
    return (
      <VerifyNotice title="Link expired">
        <p>This verification link has expired, has already been used, or is invalid.</p>
        {!isAuthenticated ? (
          <>
            <p>Sign in to request a new one.</p>
            <button type="button" className="button button--primary" onClick={() => openAuthDialog('login')}>
              Sign In
            </button>
          </>
        ) : user?.isEmailVerified && !user.pendingEmail ? (
          <>
            <p>Your e-mail address is already verified.</p>
            <Home />
          </>
        ) : (
          <SendNewLink />
        )}
      </VerifyNotice>
    );
  }
  return (
    <VerifyNotice title="E-mail verified!">
      <p>Thank you, your e-mail address is verified.</p>
      {isAuthenticated ? (
        <Home />
      ) : (
        <button type="button" className="button button--primary" onClick={() => openAuthDialog('login')}>
          Sign In
        </button>
      )}
    </VerifyNotice>
  );
}

/** The expired link's way out, on the page itself (issue 40, item 9): a new link to the address waiting for one. */
function SendNewLink() {
  const resend = useResendVerification();
  if (resend.isSuccess) {
    return (
      <>
        <p>{resend.data.message}</p>
        <Home />
      </>
    );
  }
  return (
    <div className="button-row">
      <button type="button" className="button button--primary" disabled={resend.isPending} onClick={() => resend.mutate()}>
        {resend.isPending ? 'Sending...' : 'Send a new link'}
      </button>
      <Home />
    </div>
  );
}

function Home() {
  return (
    <Link to="/" className="button button--primary">
      Go to Hoptrack
    </Link>
  );
}

function VerifyNotice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="page page--narrow">
      <PageHeader title={title} />
      <section className="card notice">{children}</section>
    </div>
  );
}
