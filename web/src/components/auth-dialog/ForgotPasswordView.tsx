import { useMutation } from '@tanstack/react-query';
import type { ForgotPasswordResponse } from '@hoptrack/proto';
import { useState, type FormEvent } from 'react';
import { authApi } from '../../lib/authApi';
import { useToast } from '../../lib/toast';
import { EmailField } from '../EmailField';
import { SubmitButton } from '../SubmitButton';

interface ForgotPasswordViewProps {
  onSent: (email: string, response: ForgotPasswordResponse) => void;
  onLogin: () => void;
}

export function ForgotPasswordView({ onSent, onLogin }: ForgotPasswordViewProps) {
  const toast = useToast();
  const [email, setEmail] = useState('');

  const requestLink = useMutation({
    mutationFn: authApi.forgotPassword,
    onSuccess: (response, variables) => {
      toast({ title: 'Reset Link Generated', description: response.message });
      onSent(variables.email, response);
    },
    onError: () => {
      toast({ title: 'Error', description: 'Failed to send reset email', variant: 'destructive' });
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!email.trim()) {
      toast({ title: 'Missing Email', description: 'Please enter your email address', variant: 'destructive' });
      return;
    }
    requestLink.mutate({ email: email.trim() });
  };

  return (
    <form className="form" noValidate onSubmit={onSubmit}>
      <EmailField autoFocus value={email} onChange={setEmail} />
      <SubmitButton pending={requestLink.isPending} pendingLabel="Sending...">
        Send Reset Link
      </SubmitButton>
      <button type="button" className="button button--ghost button--block" onClick={onLogin}>
        Back to Sign In
      </button>
    </form>
  );
}
