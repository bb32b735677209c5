import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../api';
import { useAuthDialog } from '../components/auth-dialog/AuthDialogProvider';
import { LoadingState } from '../components/LoadingState';
import { PageHeader } from '../components/PageHeader';
import { useAuth } from '../lib/auth';
import { authApi, CURRENT_USER_KEY } from '../lib/authApi';

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
  const { isAuthenticated } = useAuth();
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
    if (verified) void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
  }, [verified, queryClient]);

  if (verification.isPending) return <LoadingState label="Verifying your e-mail address..." />;
  if (verification.isError) {
    return (
      <VerifyNotice title="Link expired">
        <p>This verification link has expired, has already been used, or is invalid.</p>
        <p>{isAuthenticated ? 'Use the Resend button on the banner to get a new one.' : 'Sign in to request a new one.'}</p>
        <Home />
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
