import type { FeedSession } from '@hoptrack/proto';
import { countLabel } from '../../lib/format';
import { Avatar } from '../Avatar';
import { avatarOf } from '../social/UserCard';

/** Avatars shown before '+N' (spec section 9). */
export const LIKE_AVATARS_SHOWN = 3;

/** Who liked it: the three newest likers' avatars, '+N' for the rest, and the count. */
export function LikeSummary({ session }: { session: Pick<FeedSession, 'likes' | 'likeCount'> }) {
  const shown = session.likes.slice(0, LIKE_AVATARS_SHOWN);
  const more = session.likeCount - shown.length;
  const names = shown.map((like) => like.user.displayName);
  return (
    <span className="like-summary">
      {shown.length > 0 && (
        <span className="like-summary__avatars" role="img" aria-label={`Liked by ${names.join(', ')}${more > 0 ? ` and ${more} more` : ''}`}>
          {shown.map((like) => (
            <span key={like.id} className="like-summary__avatar" title={like.user.displayName}>
              <Avatar user={avatarOf(like.user)} size={24} />
            </span>
          ))}
          {more > 0 && <span className="like-summary__more">+{more}</span>}
        </span>
      )}
      <span className="like-summary__count">{countLabel(session.likeCount, 'like')}</span>
    </span>
  );
}
