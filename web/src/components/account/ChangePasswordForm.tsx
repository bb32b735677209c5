import { changePasswordRequest } from '@hoptrack/proto';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { serverMessage } from '../../api';
import { useAuth } from '../../lib/auth';
import { authApi } from '../../lib/authApi';
import { useToast } from '../../lib/toast';
import { Field } from '../Field';
import { SubmitButton } from '../SubmitButton';
import { schemaErrors, serverFieldError, type FieldErrors } from './fieldErrors';

const FIELDS = ['currentPassword', 'newPassword'] as const;
type Errors = FieldErrors<(typeof FIELDS)[number] | 'confirmPassword'>;

/**
 * PUT /api/me/password: every token of the account dies, this device's too,
 * so the answer's new token becomes this device's session; other devices
 * are signed out at their next call.
 */
export function ChangePasswordForm() {
  const titleId = useId();
  const { renewSession } = useAuth();
  const toast = useToast();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});

  const change = useMutation({
    mutationFn: authApi.changePassword,
    onSuccess: (res) => {
      renewSession(res);
      setCurrentPassword('');
      setNewPassword('');
      setConfirmPassword('');
      toast({ title: 'Password changed', description: res.message });
    },
    onError: (error) => {
      const inline = serverFieldError(error, FIELDS);
      if (inline) setErrors(inline);
      else toast({ title: 'Error', description: serverMessage(error, 'Failed to change your password'), variant: 'destructive' });
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = changePasswordRequest.safeParse({ currentPassword, newPassword });
    const found: Errors = parsed.success ? {} : schemaErrors(parsed.error, FIELDS);
    if (confirmPassword !== newPassword) found.confirmPassword = 'Passwords do not match';
    setErrors(found);
    if (!parsed.success || found.confirmPassword) return;
    change.mutate(parsed.data);
  };

  return (
    <section className="card account-section" aria-labelledby={titleId}>
      <h2 id={titleId} className="account-section__title">
        Change password
      </h2>
      <p className="account-section__note">Every other device you are signed in on will be signed out.</p>
      <form className="form" noValidate onSubmit={onSubmit}>
        <Field
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={currentPassword}
          error={errors.currentPassword}
          onChange={(event) => setCurrentPassword(event.target.value)}
        />
        <Field
          label="New password"
          type="password"
          autoComplete="new-password"
          value={newPassword}
          error={errors.newPassword}
          onChange={(event) => setNewPassword(event.target.value)}
        />
        <Field
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          value={confirmPassword}
          error={errors.confirmPassword}
          onChange={(event) => setConfirmPassword(event.target.value)}
        />
        <SubmitButton pending={change.isPending} pendingLabel="Changing password...">
          Change password
        </SubmitButton>
      </form>
    </section>
  );
}
