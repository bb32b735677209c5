import { useMutation } from '@tanstack/react-query';
import { INVALID_UNSUBSCRIBE_MESSAGE } from '@hoptrack/proto';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../components/PageHeader';
import { serverError } from '../api';
import { notificationsApi } from '../lib/notificationsApi';

/**
 * `/unsubscribe?token=`: the link at the foot of every notification mail.
 * No sign-in (the token is the proof). It asks for a click rather than
 * acting on load, because mail scanners open links they find and would
 * otherwise unsubscribe people who never asked (docs/decisions.md).
 */
export function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const unsubscribe = useMutation({ mutationFn: () => notificationsApi.unsubscribe(token) });

  let body;
  if (!token) body = <p role="alert">{INVALID_UNSUBSCRIBE_MESSAGE}</p>;
  else if (unsubscribe.isSuccess) body = <p role="status">{unsubscribe.data.message}</p>;
  else {
    body = (
      <>
        <p>Stop all notification e-mails from Hoptrack? You will still see your notifications in the app.</p>
        {unsubscribe.isError && <p role="alert">{serverError(unsubscribe.error)?.message ?? 'Something went wrong. Please try again.'}</p>}
        <div className="button-row">
          <button type="button" className="button button--primary" disabled={unsubscribe.isPending} onClick={() => unsubscribe.mutate()}>
            {unsubscribe.isPending ? 'Unsubscribing...' : 'Unsubscribe'}
          </button>
          <Link to="/" className="button button--ghost">
            Cancel
          </Link>
        </div>
      </>
    );
  }
  return (
    <div className="page page--narrow">
      <PageHeader title="Notification e-mails" />
      <section className="card notice">{body}</section>
    </div>
  );
}
