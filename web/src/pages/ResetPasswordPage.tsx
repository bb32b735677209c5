import { useMutation, useQuery } from '@tanstack/react-query';
import { PASSWORD_MIN } from '@hoptrack/proto/constants';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useAuthDialog } from '../components/auth-dialog/AuthDialogProvider';
import { Field } from '../components/Field';
import { LoadingState } from '../components/LoadingState';
import { PageHeader } from '../components/PageHeader';
import { SubmitButton } from '../components/SubmitButton';
import { authApi, verifyResetTokenQuery } from '../lib/authApi';
import { useToast } from '../lib/toast';

/**
 * `/reset-password?token=`: no token → invalid link; the token is verified
 * first (expired/invalid → 'Link expired'); then the form; then success.
 */
export function ResetPasswordPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  if (!token) {
    return (
      <ResetNotice title="Invalid reset link">
        <p>This password reset link is missing its token. Please request a new one.</p>
        <Link to="/forgot-password" className="button button--primary">
          Request a new link
        </Link>
      </ResetNotice>
    );
  }
  return <VerifiedReset key={token} token={token} />;
}

function VerifiedReset({ token }: { token: string }) {
  const verification = useQuery(verifyResetTokenQuery(token));
  const [done, setDone] = useState(false);
  const { openAuthDialog } = useAuthDialog();

  if (done) {
    return (
      <ResetNotice title="Password reset successful!">
        <p>Your password has been changed. You can now sign in with your new password.</p>
        <button type="button" className="button button--primary" onClick={() => openAuthDialog('login')}>
          Sign In
        </button>
      </ResetNotice>
    );
  }
  if (verification.isPending) return <LoadingState label="Verifying reset link..." />;
  if (verification.isError) {
    return (
      <ResetNotice title="Link expired">
        <p>This password reset link has expired or is invalid.</p>
        <Link to="/forgot-password" className="button button--primary">
          Request a new link
        </Link>
      </ResetNotice>
    );
  }
  return <ResetForm token={token} email={verification.data.email} onDone={() => setDone(true)} />;
}

interface ResetErrors {
  newPassword?: string;
  confirmPassword?: string;
}

function validate(newPassword: string, confirmPassword: string): ResetErrors {
  const errors: ResetErrors = {};
  if (newPassword.length < PASSWORD_MIN) {
    errors.newPassword = `Password must be at least ${PASSWORD_MIN} characters long`;
  }
  if (confirmPassword !== newPassword) errors.confirmPassword = "Passwords don't match";
  return errors;
}

function ResetForm({ token, email, onDone }: { token: string; email: string; onDone: () => void }) {
  const toast = useToast();
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [errors, setErrors] = useState<ResetErrors>({});

  const reset = useMutation({
    mutationFn: authApi.resetPassword,
    onSuccess: onDone,
    onError: () => toast({ title: 'Error', description: 'Failed to reset password', variant: 'destructive' }),
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validate(newPassword, confirmPassword);
    setErrors(found);
    if (found.newPassword || found.confirmPassword) return;
    reset.mutate({ token, newPassword });
  };

  return (
    <div className="page page--narrow">
      <PageHeader title="Set a new password" subtitle={<>For {email}</>} />
      <form className="card form" noValidate onSubmit={onSubmit}>
        <Field
          label="New password"
          type="password"
          autoComplete="new-password"
          value={newPassword}
          error={errors.newPassword}
          onChange={(event) => setNewPassword(event.target.value)}
        />
        <Field
          label="Confirm password"
          type="password"
          autoComplete="new-password"
          value={confirmPassword}
          error={errors.confirmPassword}
          onChange={(event) => setConfirmPassword(event.target.value)}
        />
        <SubmitButton pending={reset.isPending} pendingLabel="Resetting...">
          Reset Password
        </SubmitButton>
      </form>
    </div>
  );
}

function ResetNotice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="page page--narrow">
      <PageHeader title={title} />
      <section className="card notice">{children}</section>
    </div>
  );
}
