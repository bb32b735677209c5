import { useMutation } from '@tanstack/react-query';
import { forgotPasswordRequest, type ForgotPasswordResponse } from '@hoptrack/proto';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { EmailField } from '../components/EmailField';
import { PageHeader } from '../components/PageHeader';
import { ResetLinkSent } from '../components/ResetLinkSent';
import { SubmitButton } from '../components/SubmitButton';
import { authApi } from '../lib/authApi';
import { useToast } from '../lib/toast';

/** `/forgot-password`: request a reset link; the email must be valid (checked inline). */
export function ForgotPasswordPage() {
  const toast = useToast();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [sent, setSent] = useState<{ email: string; response: ForgotPasswordResponse } | null>(null);

  const requestLink = useMutation({
    mutationFn: authApi.forgotPassword,
    onSuccess: (response, variables) => setSent({ email: variables.email, response }),
    onError: () => toast({ title: 'Error', description: 'Failed to send reset email', variant: 'destructive' }),
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = forgotPasswordRequest.safeParse({ email });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Please enter a valid email address');
      return;
    }
    setError(undefined);
    requestLink.mutate(parsed.data);
  };

  if (sent) {
    return (
      <div className="page page--narrow">
        <PageHeader title="Check your email" />
        <section className="card">
          <ResetLinkSent email={sent.email} response={sent.response} />
          <Link to="/" className="button button--secondary button--block">
            Back to home
          </Link>
        </section>
      </div>
    );
  }

  return (
    <div className="page page--narrow">
      <PageHeader title="Forgot your password?" subtitle="Enter your email and we'll send you a reset link." />
      <form className="card form" noValidate onSubmit={onSubmit}>
        <EmailField value={email} error={error} onChange={setEmail} />
        <SubmitButton pending={requestLink.isPending} pendingLabel="Sending...">
          Send Reset Link
        </SubmitButton>
        <Link to="/" className="link form__switch">
          Back to home
        </Link>
      </form>
    </div>
  );
}
