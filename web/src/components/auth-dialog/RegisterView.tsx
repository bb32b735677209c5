import { useMutation } from '@tanstack/react-query';
import type { RegisterRequest } from '@hoptrack/proto';
import { PASSWORD_MIN } from '@hoptrack/proto/constants';
import { useRef, useState, type FormEvent } from 'react';
import { serverError } from '../../api';
import { authApi } from '../../lib/authApi';
import { useAuth } from '../../lib/auth';
import { useToast, type ToastInput } from '../../lib/toast';
import { Field } from '../Field';
import { SubmitButton } from '../SubmitButton';

interface RegisterForm extends RegisterRequest {
  confirmPassword: string;
}

const EMPTY_FORM: RegisterForm = { email: '', username: '', displayName: '', password: '', confirmPassword: '' };

/** Client checks in the spec's order; the first failing one becomes the toast. */
function firstProblem(form: RegisterForm): ToastInput | null {
  const values = [form.email.trim(), form.username.trim(), form.displayName.trim(), form.password, form.confirmPassword];
  if (values.some((value) => !value)) return { title: 'Missing Information', description: 'Please fill in all fields' };
  if (form.password !== form.confirmPassword) return { title: 'Password Mismatch', description: 'Passwords do not match' };
  if (form.password.length < PASSWORD_MIN) {
    return { title: 'Password Too Short', description: `Password must be at least ${PASSWORD_MIN} characters long` };
  }
  return null;
}

export function RegisterView({ onSuccess, onLogin }: { onSuccess: () => void; onLogin: () => void }) {
  const { signIn } = useAuth();
  const toast = useToast();
  const [form, setForm] = useState<RegisterForm>(EMPTY_FORM);
  const inputs = useRef(new Map<string, HTMLInputElement>());

  const register = useMutation({
    mutationFn: authApi.register,
    onSuccess: (response) => {
      signIn(response);
      toast({ title: 'Account Created!', description: response.message });
      onSuccess();
    },
    onError: (error) => {
      const problem = serverError(error);
      toast({
        title: 'Registration Failed',
        description: problem?.message || 'Failed to create account',
        variant: 'destructive',
      });
      if (problem?.field) inputs.current.get(problem.field)?.focus();
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = firstProblem(form);
    if (problem) {
      toast({ ...problem, variant: 'destructive' });
      return;
    }
    register.mutate({
      email: form.email.trim(),
      username: form.username.trim(),
      displayName: form.displayName.trim(),
      password: form.password,
    });
  };

  const bind = (name: keyof RegisterForm) => ({
    name,
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm((current) => ({ ...current, [name]: event.target.value })),
    ref: (element: HTMLInputElement | null) => {
      if (element) inputs.current.set(name, element);
      else inputs.current.delete(name);
    },
  });

  return (
    <form className="form" noValidate onSubmit={onSubmit}>
      <Field
        label="Email"
        type="email"
        autoComplete="email"
        autoFocus
        hint="Your e-mail address is private: nobody but you sees it, unless you let your friends see it in Privacy Settings."
        {...bind('email')}
      />
      <Field label="Username" autoComplete="username" {...bind('username')} />
      <Field label="Display Name" autoComplete="name" {...bind('displayName')} />
      <Field label="Password" type="password" autoComplete="new-password" {...bind('password')} />
      <Field label="Confirm Password" type="password" autoComplete="new-password" {...bind('confirmPassword')} />
      <SubmitButton pending={register.isPending} pendingLabel="Creating account...">
        Create Account
      </SubmitButton>
      <p className="form__switch">
        Already have an account?{' '}
        <button type="button" className="link-button" onClick={onLogin}>
          Sign in
        </button>
      </p>
    </form>
  );
}
