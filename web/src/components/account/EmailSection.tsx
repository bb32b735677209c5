import { useMutation } from '@tanstack/react-query';
import type { CurrentUser } from '@hoptrack/proto';
import { useId } from 'react';
import { serverMessage } from '../../api';
import { authApi } from '../../lib/authApi';
import { useToast } from '../../lib/toast';

/** The address the account signs in with, whether it is verified, and the new one waiting for its link. */
export function EmailSection({ user }: { user: CurrentUser }) {
  const titleId = useId();
  const toast = useToast();
  const resend = useMutation({
    mutationFn: authApi.resendVerification,
    onSuccess: (res) => toast({ title: 'E-mail sent', description: res.message }),
    onError: (err) => toast({ title: 'Error', description: serverMessage(err, 'Failed to send the verification e-mail'), variant: 'destructive' }),
  });
  return (
    <section className="card account-section" aria-labelledby={titleId}>
      <h2 id={titleId} className="account-section__title">
        E-mail
      </h2>
      <p className="account-email">
        <span className="account-email__address">{user.email}</span>
        <span className={`badge ${user.isEmailVerified ? 'badge--verified' : 'badge--muted'}`}>
          {user.isEmailVerified ? 'Verified' : 'Not verified'}
        </span>
      </p>
      {user.pendingEmail && (
        <p className="account-section__note" role="status">
          Waiting for you to confirm {user.pendingEmail}. Open the link we mailed to that address; until then you sign in with{' '}
          {user.email}.
        </p>
      )}
      {!user.isEmailVerified && (
        <div>
          <button type="button" className="button button--secondary" disabled={resend.isPending} onClick={() => resend.mutate()}>
            {resend.isPending ? 'Sending...' : 'Resend verification e-mail'}
          </button>
        </div>
      )}
    </section>
  );
}
