import { DELETE_CONFIRMATION, deleteAccountRequest } from '@hoptrack/proto';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { serverMessage } from '../../api';
import { useAuth } from '../../lib/auth';
import { authApi } from '../../lib/authApi';
import { useToast } from '../../lib/toast';
import { ConfirmDialog } from '../ConfirmDialog';
import { Field } from '../Field';
import { schemaErrors, serverFieldError, type FieldErrors } from './fieldErrors';

const FIELDS = ['password', 'confirm'] as const;
type Errors = FieldErrors<(typeof FIELDS)[number]>;

const ERASED =
  'Your profile, beer sessions, photos and albums, comments, likes and reactions, messages, friendships and challenges are erased for good. This cannot be undone.';

/** DELETE /api/me, behind a dialog that asks for the password and the typed word. */
export function DeleteAccountSection() {
  const titleId = useId();
  const [open, setOpen] = useState(false);
  return (
    <section className="card account-section account-section--danger" aria-labelledby={titleId}>
      <h2 id={titleId} className="account-section__title">
        Delete account
      </h2>
      <p className="account-section__note">{ERASED}</p>
      <div>
        <button type="button" className="button button--danger" onClick={() => setOpen(true)}>
          Delete account...
        </button>
      </div>
      {open && <DeleteAccountDialog onClose={() => setOpen(false)} />}
    </section>
  );
}

function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const toast = useToast();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const confirmed = confirm === DELETE_CONFIRMATION;

  const erase = useMutation({
    mutationFn: authApi.deleteAccount,
    onSuccess: (res) => {
      // Every token of the account is dead now: forget this one and leave for the welcome page.
      void navigate('/');
      signOut();
      toast({ title: 'Account deleted', description: res.message });
    },
    onError: (error) => {
      const inline = serverFieldError(error, FIELDS);
      if (inline) setErrors(inline);
      else toast({ title: 'Error', description: serverMessage(error, 'Failed to delete your account'), variant: 'destructive' });
    },
  });

  const onConfirm = () => {
    if (!confirmed || erase.isPending) return;
    const parsed = deleteAccountRequest.safeParse({ password, confirm });
    if (!parsed.success) {
      setErrors(schemaErrors(parsed.error, FIELDS));
      return;
    }
    setErrors({});
    erase.mutate(parsed.data);
  };

  return (
    <ConfirmDialog
      title="Delete your account?"
      description={`${ERASED} Enter your password and type ${DELETE_CONFIRMATION} to confirm.`}
      confirmLabel={erase.isPending ? 'Deleting...' : 'Delete my account'}
      pending={erase.isPending}
      confirmDisabled={!confirmed}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <Field
        label="Password"
        type="password"
        autoComplete="current-password"
        value={password}
        error={errors.password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <Field
        label={`Type ${DELETE_CONFIRMATION} to confirm`}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        value={confirm}
        error={errors.confirm}
        onChange={(event) => setConfirm(event.target.value)}
      />
    </ConfirmDialog>
  );
}
