import { useQuery } from '@tanstack/react-query';
import type { PublicSession } from '@hoptrack/proto';
import { Link } from 'react-router';
import { errorStatus } from '../../api';
import { abvText, countLabel, durationLabel, shortDate } from '../../lib/format';
import { sessionPath } from '../../lib/sessionLinks';
import { userSessionsQuery } from '../../lib/sessionsApi';
import { EmptyState } from '../EmptyState';
import { BeerIcon, LockIcon } from '../icons';
import { RefreshFailed } from '../RefreshFailed';
import { ListError } from '../social/UserList';
import { SessionListSkeleton } from './SessionListSkeleton';

/** Photos shown per session before '+N' (spec section 9). */
export const SESSION_PHOTOS_SHOWN = 3;

/**
 * The Beer Sessions tab of a public profile: GET /api/users/{id}/sessions
 * (the server enforces privacy: 403 for a private profile of a non-friend),
 * each session with up to 3 photos then '+N'; its title, date and photos
 * lead to the session's page.
 */
export function UserSessionList({ userId, displayName }: { userId: string; displayName: string }) {
  const sessions = useQuery(userSessionsQuery(userId));
  if (sessions.isPending) return <SessionListSkeleton label="Loading beer sessions" />;
  // A 403 holds even over sessions shown before (no longer a friend): the list goes. Any other failed refresh keeps it.
  const refused = errorStatus(sessions.error) === 403;
  if (sessions.isLoadingError || refused) {
    return refused ? (
      <EmptyState title="This profile is private" text="Send a friend request to see their sessions and stats." Icon={LockIcon} />
    ) : (
      <ListError text="Failed to fetch sessions" onRetry={() => void sessions.refetch()} />
    );
  }
  if (sessions.data.length === 0) {
    return <EmptyState title="No beer sessions yet" text={`Sessions ${displayName} logs will show up here.`} Icon={BeerIcon} />;
  }
  return (
    <>
      {sessions.isRefetchError && <RefreshFailed onRetry={() => void sessions.refetch()} />}
      <ul className="activity-list" aria-label="Beer sessions">
        {sessions.data.map((session) => (
          <PublicSessionItem key={session.id} session={session} />
        ))}
      </ul>
    </>
  );
}

function PublicSessionItem({ session }: { session: PublicSession }) {
  const href = sessionPath(session.id);
  return (
    <li className="activity" aria-label={session.title}>
      <div className="activity__head">
        <h3 className="activity__title">
          <Link to={href}>{session.title}</Link>
        </h3>
        <Link to={href} className="activity__date-link">
          <time className="activity__date" dateTime={session.createdAt}>
            {shortDate(session.createdAt)}
          </time>
        </Link>
      </div>
      {session.description && <p className="activity__description">{session.description}</p>}
      <p className="activity__facts">
        <span>{countLabel(session.beerCount, 'beer')}</span>
        <span>{durationLabel(session.duration)}</span>
        {session.averageAbv && <span>{abvText(session.averageAbv)}</span>}
        {session.location && <span>📍 {session.location}</span>}
        <span>{countLabel(session.likesCount, 'like')}</span>
      </p>
      <SessionPhotos title={session.title} photos={session.photos} href={href} />
    </li>
  );
}

/** Up to 3 thumbnails, then '+N' for the rest. */
function SessionPhotos({ title, photos, href }: { title: string; photos: readonly string[]; href: string }) {
  if (photos.length === 0) return null;
  const shown = photos.slice(0, SESSION_PHOTOS_SHOWN);
  const more = photos.length - shown.length;
  return (
    <ul className="activity__photos" aria-label="Photos">
      {shown.map((url, index) => (
        <li key={`${index}:${url}`}>
          <Link to={href} className="activity__photo-link">
            <img className="activity__photo" src={url} alt={`Photo ${index + 1} of ${title}`} loading="lazy" />
          </Link>
        </li>
      ))}
      {more > 0 && (
        <li className="activity__more" aria-label={`${more} more photos`}>
          +{more}
        </li>
      )}
    </ul>
  );
}
