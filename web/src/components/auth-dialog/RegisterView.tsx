import { useMutation } from '@tanstack/react-query';
import { registerRequest, type RegisterRequest } from '@hoptrack/proto';
import { DISPLAY_NAME_MAX, PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from '@hoptrack/proto/constants';
import { useRef, useState, type FormEvent } from 'react';
import { serverError } from '../../api';
import { authApi } from '../../lib/authApi';
import { useAuth } from '../../lib/auth';
import { useToast, type ToastInput } from '../../lib/toast';
import { schemaErrors, serverFieldError, type FieldErrors } from '../account/fieldErrors';
import { Field } from '../Field';
import { SubmitButton } from '../SubmitButton';

interface RegisterForm extends RegisterRequest {
  confirmPassword: string;
}

const FIELDS = ['email', 'username', 'displayName', 'password', 'confirmPassword'] as const;
type FieldName = (typeof FIELDS)[number];
type Errors = FieldErrors<FieldName>;

const EMPTY_FORM: RegisterForm = { email: '', username: '', displayName: '', password: '', confirmPassword: '' };

/** An empty field says so (the schema's own words for a missing value), rather than what a short value would hear. */
const REQUIRED: Record<FieldName, string> = {
  email: 'Email is required',
  username: 'Username is required',
  displayName: 'Display name is required',
  password: 'Password is required',
  confirmPassword: 'Please type the password again',
};
const PASSWORDS_DIFFER = 'Passwords do not match';

/** The rules, said under each field before anything is typed; the numbers are the shared schema's. */
const RULES = {
  email: 'Your e-mail address is private: nobody but you sees it, unless you let your friends see it in Privacy Settings.',
  username: `${USERNAME_MIN}–${USERNAME_MAX} characters: letters, numbers, dots, dashes and underscores. Shown on your profile.`,
  displayName: `Up to ${DISPLAY_NAME_MAX} characters.`,
  password: `At least ${PASSWORD_MIN} characters.`,
} as const;

/** Every field's problem at once: what the server's schema would answer, an empty field, a confirmation that differs. */
function fieldProblems(form: RegisterForm): Errors {
  const parsed = registerRequest.safeParse(form);
  const errors: Errors = parsed.success ? {} : schemaErrors(parsed.error, FIELDS);
  if (form.password !== form.confirmPassword) errors.confirmPassword = PASSWORDS_DIFFER;
  for (const name of FIELDS) if (!form[name].trim()) errors[name] = REQUIRED[name];
  return errors;
}

/** The one toast of a failed check, in the spec's order and words; then the first field's message. */
function toastFor(form: RegisterForm, errors: Errors): ToastInput | null {
  if (FIELDS.some((name) => !form[name].trim())) return { title: 'Missing Information', description: 'Please fill in all fields' };
  if (form.password !== form.confirmPassword) return { title: 'Password Mismatch', description: PASSWORDS_DIFFER };
  if (form.password.length < PASSWORD_MIN) {
    return { title: 'Password Too Short', description: `Password must be at least ${PASSWORD_MIN} characters long` };
  }
  const first = FIELDS.map((name) => errors[name]).find(Boolean);
  return first ? { title: 'Registration Failed', description: first } : null;
}

/**
 * Sign-up (issue 40, item 14): the rules stand under the fields before
 * typing, a submit checks every field and shows each problem at its field at
 * once (the spec's toast still names the first), a server refusal that names
 * a field shows there too, and nothing typed is lost.
 */
export function RegisterView({ onSuccess, onLogin }: { onSuccess: () => void; onLogin: () => void }) {
  const { signIn } = useAuth();
  const toast = useToast();
  const [form, setForm] = useState<RegisterForm>(EMPTY_FORM);
  const [errors, setErrors] = useState<Errors>({});
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
      const inline = serverFieldError(error, FIELDS);
      if (inline) setErrors(inline);
      if (problem?.field) inputs.current.get(problem.field)?.focus();
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = fieldProblems(form);
    setErrors(found);
    const problem = toastFor(form, found);
    if (problem) {
      toast({ ...problem, variant: 'destructive' });
      const first = FIELDS.find((name) => found[name]);
      if (first) inputs.current.get(first)?.focus();
      return;
    }
    register.mutate({
      email: form.email.trim(),
      username: form.username.trim(),
      displayName: form.displayName.trim(),
      password: form.password,
    });
  };

  const bind = (name: FieldName) => ({
    name,
    value: form[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) => {
      setForm((current) => ({ ...current, [name]: event.target.value }));
      // A field's message goes once it is edited; the others stay until the next submit.
      setErrors(({ [name]: _edited, ...rest }) => rest);
    },
    ref: (element: HTMLInputElement | null) => {
      if (element) inputs.current.set(name, element);
      else inputs.current.delete(name);
    },
  });

  return (
    <form className="form" noValidate onSubmit={onSubmit}>
      <Field label="Email" type="email" autoComplete="email" autoFocus hint={RULES.email} {...bind('email')} />
      <Field label="Username" autoComplete="username" hint={RULES.username} {...bind('username')} />
      <Field label="Display Name" autoComplete="name" hint={RULES.displayName} limit={DISPLAY_NAME_MAX} {...bind('displayName')} />
      <Field label="Password" type="password" autoComplete="new-password" hint={RULES.password} {...bind('password')} />
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
