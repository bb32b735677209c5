import { useQuery } from '@tanstack/react-query';
import { uuid } from '@hoptrack/proto';
import { Link, useLocation, useParams } from 'react-router';
import { EmptyState } from '../components/EmptyState';
import { SessionCard } from '../components/feed/SessionCard';
import { FeedSkeleton } from '../components/feed/FeedSkeleton';
import { PageHeader } from '../components/PageHeader';
import { RefreshFailed } from '../components/RefreshFailed';
import { ListError } from '../components/social/UserList';
import { errorStatus } from '../api';
import { SESSION_COMMENTS_HASH } from '../lib/sessionLinks';
import { sessionQuery } from '../lib/sessionsApi';

/**
 * `/sessions/:id`: one session's card, where a notification about it leads.
 * Read with GET /api/sessions/{id}, among SESSION_WRITES_AFFECT, so every session
 * write (a like here, say) refetches it as it does the feed. A session that
 * is gone or that the viewer may no longer see answers 404 (or 403): the
 * screen says so instead of failing. At `#comments` (a "commented"
 * notification) the card opens with its comments expanded, the newest in view.
 */
export function SessionPage() {
  const { sessionId = '' } = useParams();
  const atComments = useLocation().hash === SESSION_COMMENTS_HASH;
  // The id goes into the URL of the call: anything but an id (`..`, say) must not reach another path.
  const validId = uuid.safeParse(sessionId).success;
  const session = useQuery({ ...sessionQuery(sessionId), enabled: validId });

  // Gone, even after it was shown (deleted meanwhile): said, not the old card. Any other failed refresh keeps the card.
  const status = errorStatus(session.error);
  const gone = !validId || status === 404 || status === 403;
  let body;
  if (validId && session.isPending) body = <FeedSkeleton count={1} />;
  else if (gone || session.isLoadingError) {
    body = gone ? (
        <EmptyState title="Session not available" text="It was deleted, or you can no longer see it." headingLevel={2}>
          <Link to="/" className="button button--primary">
            Back to the feed
          </Link>
        </EmptyState>
      ) : (
        <ListError text="Failed to fetch the session" onRetry={() => void session.refetch()} />
      );
  } else if (session.data) {
    body = (
      <>
        {session.isRefetchError && <RefreshFailed onRetry={() => void session.refetch()} />}
        <ul className="session-list" aria-label="Session">
          <SessionCard session={session.data} showComments={atComments} />
        </ul>
      </>
    );
  }
  return (
    <div className="page page--narrow">
      <PageHeader title={session.data?.title ?? 'Session'} />
      {body}
    </div>
  );
}
