import type { FeedSession } from '@hoptrack/proto';
import { Suspense, useId, useState } from 'react';
import { Link } from 'react-router';
import { useAuth } from '../../lib/auth';
import { countLabel } from '../../lib/format';
import { lazyNamed } from '../../lib/lazyNamed';
import { sessionPath } from '../../lib/sessionLinks';
import { Avatar } from '../Avatar';
import { RelativeTime } from '../RelativeTime';
import { DeleteSessionDialog } from '../sessions/DeleteSessionDialog';
import { avatarOf } from '../social/UserCard';
import { CommentsSection } from './CommentsSection';
import { LikeButton } from './LikeButton';
import { LikeSummary } from './LikeSummary';
import { ReactionBar } from './ReactionBar';
import { SessionFacts } from './SessionFacts';
import { SessionMenu } from './SessionMenu';
import { SessionPhotos } from './SessionPhotos';

// The edit form is fetched when an owner first opens it, not with the feed.
const EditSessionDialog = lazyNamed(() => import('../sessions/EditSessionDialog'), 'EditSessionDialog');

type OwnerDialog = 'edit' | 'delete' | null;

/**
 * One session of the feed (spec section 2): who and when, title,
 * description, place, photos, beers, hours, ABV, types and music; likes with
 * three avatars and '+N' (opening everyone who liked it), the like toggle, the
 * comments (collapsed until opened, the newest few until 'View all') and the
 * reaction bar. Only the owner gets the Edit / Delete menu. The title, the
 * photo and the time are links to the session's own page (issue 40), which
 * opens with `showComments` (its `#comments` address): the comments
 * expanded and the newest one scrolled into view.
 */
export function SessionCard({ session, showComments = false }: { session: FeedSession; showComments?: boolean }) {
  const { user } = useAuth();
  const [commentsOpen, setCommentsOpen] = useState(showComments);
  const href = sessionPath(session.id);
  const [dialog, setDialog] = useState<OwnerDialog>(null);
  const commentsId = useId();
  const isOwner = user?.id === session.userId;

  return (
    <li>
      <article className="card session-card" aria-label={session.title}>
        <header className="session-card__header">
          <Avatar user={avatarOf(session.user)} size={44} />
          <div className="session-card__who">
            <Link to={`/users/${session.userId}`} className="session-card__author">
              {session.user.displayName}
            </Link>
            <p className="session-card__meta">
              <Link to={href} className="session-card__time">
                <RelativeTime at={session.createdAt} />
              </Link>
              {session.location && <span className="session-card__place">📍 {session.location}</span>}
            </p>
          </div>
          {isOwner && <SessionMenu onEdit={() => setDialog('edit')} onDelete={() => setDialog('delete')} />}
        </header>
        <h2 className="session-card__title">
          <Link to={href}>{session.title}</Link>
        </h2>
        {session.description && <p className="session-card__description">{session.description}</p>}
        <SessionPhotos title={session.title} photos={session.photos} href={href} />
        <SessionFacts session={session} />
        <div className="session-card__counts">
          <LikeSummary session={session} />
          <span className="session-card__comment-count">{countLabel(session.commentCount, 'comment')}</span>
        </div>
        <div className="session-card__actions">
          <LikeButton session={session} />
          <button
            type="button"
            className="session-action"
            aria-expanded={commentsOpen}
            aria-controls={commentsOpen ? commentsId : undefined}
            onClick={() => setCommentsOpen((open) => !open)}
          >
            <span className="session-action__icon" aria-hidden="true">
              💬
            </span>
            Comments
          </button>
        </div>
        <ReactionBar session={session} />
        {commentsOpen && <CommentsSection id={commentsId} session={session} revealNewest={showComments} />}
      </article>
      {dialog === 'edit' && (
        <Suspense fallback={null}>
          <EditSessionDialog session={session} onClose={() => setDialog(null)} />
        </Suspense>
      )}
      {dialog === 'delete' && <DeleteSessionDialog session={session} onClose={() => setDialog(null)} />}
    </li>
  );
}
