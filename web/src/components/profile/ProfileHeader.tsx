import type { OtherUser } from '@hoptrack/proto';
import { joinedLabel } from '../../lib/format';
import { Avatar } from '../Avatar';
import { CalendarIcon } from '../icons';
import { FriendshipButton } from '../social/FriendshipButton';
import { MessageLink } from '../social/MessageLink';
import { avatarOf } from '../social/UserCard';

/**
 * A profile's header: avatar, display name (the screen's h1), @username, and
 * when the viewer may see details, bio and 'Joined <Month YYYY>'. Others get
 * the friendship button and, when they accept direct messages, 'Message'.
 */
export function ProfileHeader({ user, isSelf }: { user: OtherUser; isSelf: boolean }) {
  const joined = user.canViewDetails ? joinedLabel(user.joinDate || user.createdAt) : '';
  return (
    <section className="card profile-header" aria-label="Profile">
      <title>{`${user.displayName} · Hoptrack`}</title>
      <Avatar user={avatarOf(user)} size={96} />
      <div className="profile-header__text">
        <h1 className="profile-header__name">{user.displayName}</h1>
        <p className="profile-header__username">@{user.username}</p>
        {user.canViewDetails && user.bio && <p className="profile-header__bio">{user.bio}</p>}
        {joined && (
          <p className="profile-header__joined">
            <CalendarIcon width={16} height={16} />
            <span>{joined}</span>
          </p>
        )}
      </div>
      {!isSelf && (
        <div className="profile-header__actions">
          <FriendshipButton user={user} />
          {user.allowDirectMessages && <MessageLink userId={user.id} />}
        </div>
      )}
    </section>
  );
}
