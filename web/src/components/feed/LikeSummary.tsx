import type { FeedSession } from '@hoptrack/proto';
import { useState } from 'react';
import { countLabel } from '../../lib/format';
import { Avatar } from '../Avatar';
import { useTooltip } from '../Tooltip';
import { avatarOf } from '../social/UserCard';
import { LikersDialog } from './LikersDialog';

/** Avatars shown before '+N' (spec section 9). */
export const LIKE_AVATARS_SHOWN = 3;

/**
 * Who liked it: the three newest likers' avatars, '+N' for the rest, and the
 * count. Once anyone has liked it, the summary opens 'Liked by' with everyone;
 * with no likes it stays a plain count (there is nobody to list).
 */
export function LikeSummary({ session }: { session: Pick<FeedSession, 'id' | 'likes' | 'likeCount'> }) {
  const [open, setOpen] = useState(false);
  const shown = session.likes.slice(0, LIKE_AVATARS_SHOWN);
  const more = session.likeCount - shown.length;
  const names = shown.map((like) => like.user.displayName);
  const content = (
    <>
      {shown.length > 0 && (
        <span className="like-summary__avatars" role="img" aria-label={`Liked by ${names.join(', ')}${more > 0 ? ` and ${more} more` : ''}`}>
          {shown.map((like) => (
            <LikerAvatar key={like.id} user={like.user} />
          ))}
          {more > 0 && <span className="like-summary__more">+{more}</span>}
        </span>
      )}
      <span className="like-summary__count">{countLabel(session.likeCount, 'like')}</span>
    </>
  );

  if (session.likeCount === 0) return <span className="like-summary">{content}</span>;
  return (
    <>
      {/* Named by its content: the likers' avatars ('Liked by …') and the count. */}
      <button type="button" className="like-summary like-summary--button" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {content}
      </button>
      {open && <LikersDialog sessionId={session.id} onClose={() => setOpen(false)} />}
    </>
  );
}

/** A liker's avatar, named by a tooltip on hover (the summary's label names them all for screen readers). */
function LikerAvatar({ user }: { user: FeedSession['likes'][number]['user'] }) {
  const { triggerProps, tooltip } = useTooltip(user.displayName);
  return (
    <>
      <span className="like-summary__avatar" {...triggerProps}>
        <Avatar user={avatarOf(user)} size={24} />
      </span>
      {tooltip}
    </>
  );
}
