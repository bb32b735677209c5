import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { serverMessage } from '../../api';
import { authApi } from '../../lib/authApi';
import { useAuth } from '../../lib/auth';
import { readableTimes } from '../../lib/format';
import { useToast } from '../../lib/toast';
import { EmailField } from '../EmailField';
import { Field } from '../Field';
import { SubmitButton } from '../SubmitButton';

interface LoginViewProps {
  onSuccess: () => void;
  onRegister: () => void;
  onForgotPassword: () => void;
}

export function LoginView({ onSuccess, onRegister, onForgotPassword }: LoginViewProps) {
  const { signIn } = useAuth();
  const toast = useToast();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  const login = useMutation({
    mutationFn: authApi.login,
    onSuccess: (response) => {
      signIn(response);
      toast({ title: 'Welcome back!', description: `Signed in as ${response.user.displayName}.` });
      onSuccess();
    },
    onError: (error) => {
      toast({
        title: 'Login Failed',
        description: readableTimes(serverMessage(error, 'Invalid email or password')),
        variant: 'destructive',
      });
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!email.trim() || !password) {
      toast({ title: 'Missing Information', description: 'Please fill in all fields', variant: 'destructive' });
      return;
    }
    login.mutate({ email: email.trim(), password });
  };

  return (
    <form className="form" noValidate onSubmit={onSubmit}>
      <EmailField autoFocus value={email} onChange={setEmail} />
      <Field
        label="Password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <button type="button" className="link-button form__aside" onClick={onForgotPassword}>
        Forgot your password?
      </button>
      <SubmitButton pending={login.isPending} pendingLabel="Signing in...">
        Sign In
      </SubmitButton>
      <p className="form__switch">
        Don't have an account?{' '}
        <button type="button" className="link-button" onClick={onRegister}>
          Sign up
        </button>
      </p>
    </form>
  );
}
