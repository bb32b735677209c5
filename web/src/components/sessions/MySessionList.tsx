import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { abvText, countLabel, durationLabel, shortDate } from '../../lib/format';
import { sessionPath } from '../../lib/sessionLinks';
import { mySessionsQuery } from '../../lib/sessionsApi';
import { EmptyState } from '../EmptyState';
import { RefreshFailed } from '../RefreshFailed';
import { ListError } from '../social/UserList';
import { SessionListSkeleton } from './SessionListSkeleton';

/**
 * 'My Activities' of the own profile (spec section 2): the user's sessions
 * from GET /api/me/sessions, newest first, each with title, date, beers,
 * minutes, ABV and place; the title and date lead to the session's page.
 */
export function MySessionList() {
  const sessions = useQuery(mySessionsQuery());
  return (
    <section className="profile-section" aria-labelledby="my-activities-title">
      <h2 id="my-activities-title" className="profile-section__title">
        My Activities
      </h2>
      {sessions.isRefetchError && <RefreshFailed onRetry={() => void sessions.refetch()} />}
      {sessions.isPending ? (
        <SessionListSkeleton label="Loading activities" />
      ) : sessions.isLoadingError ? (
        <ListError text="Failed to fetch sessions" onRetry={() => void sessions.refetch()} />
      ) : sessions.data.length === 0 ? (
        <EmptyState title="No activities yet" text="Log your first beer session to see it here." headingLevel={3} />
      ) : (
        <ul className="activity-list" aria-label="My activities">
          {sessions.data.map((session) => (
            <li key={session.id} className="activity" aria-label={session.title}>
              <div className="activity__head">
                <h3 className="activity__title">
                  <Link to={sessionPath(session.id)}>{session.title}</Link>
                </h3>
                <Link to={sessionPath(session.id)} className="activity__date-link">
                  <time className="activity__date" dateTime={session.createdAt}>
                    {shortDate(session.createdAt)}
                  </time>
                </Link>
              </div>
              <p className="activity__facts">
                <span>{countLabel(session.beerCount, 'beer')}</span>
                <span>{durationLabel(session.duration)}</span>
                {session.avgAbv && <span>{abvText(session.avgAbv)}</span>}
                {session.location && <span>📍 {session.location}</span>}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
