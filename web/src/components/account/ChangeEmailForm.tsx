import { changeEmailRequest, type CurrentUser } from '@hoptrack/proto';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { serverMessage } from '../../api';
import { authApi, CURRENT_USER_KEY } from '../../lib/authApi';
import { useToast } from '../../lib/toast';
import { Field } from '../Field';
import { SubmitButton } from '../SubmitButton';
import { schemaErrors, serverFieldError, type FieldErrors } from './fieldErrors';

const FIELDS = ['newEmail', 'currentPassword'] as const;
type Errors = FieldErrors<(typeof FIELDS)[number]>;

/**
 * PUT /api/me/email: the new address gets a verification link and takes
 * over only when it is opened; meanwhile the answer's user carries it as
 * `pendingEmail`, which the E-mail section shows.
 */
export function ChangeEmailForm() {
  const titleId = useId();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [newEmail, setNewEmail] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});

  const change = useMutation({
    mutationFn: authApi.changeEmail,
    onSuccess: (res) => {
      queryClient.setQueryData<CurrentUser | null>(CURRENT_USER_KEY, res.user);
      setNewEmail('');
      setCurrentPassword('');
      toast({ title: 'Check your inbox', description: res.message });
    },
    onError: (error) => {
      const inline = serverFieldError(error, FIELDS);
      if (inline) setErrors(inline);
      else toast({ title: 'Error', description: serverMessage(error, 'Failed to change your e-mail address'), variant: 'destructive' });
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = changeEmailRequest.safeParse({ newEmail, currentPassword });
    if (!parsed.success) {
      setErrors(schemaErrors(parsed.error, FIELDS));
      return;
    }
    setErrors({});
    change.mutate(parsed.data);
  };

  return (
    <section className="card account-section" aria-labelledby={titleId}>
      <h2 id={titleId} className="account-section__title">
        Change e-mail
      </h2>
      <p className="account-section__note">We mail a link to the new address; the change takes effect when you open it.</p>
      <form className="form" noValidate onSubmit={onSubmit}>
        <Field
          label="New e-mail"
          type="email"
          autoComplete="email"
          value={newEmail}
          error={errors.newEmail}
          onChange={(event) => setNewEmail(event.target.value)}
        />
        <Field
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={currentPassword}
          error={errors.currentPassword}
          onChange={(event) => setCurrentPassword(event.target.value)}
        />
        <SubmitButton pending={change.isPending} pendingLabel="Sending link...">
          Change e-mail
        </SubmitButton>
      </form>
    </section>
  );
}
