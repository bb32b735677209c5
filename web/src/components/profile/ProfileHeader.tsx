import type { OtherUser } from '@hoptrack/proto';
import type { ReactNode } from 'react';
import { joinedLabel } from '../../lib/format';
import { usePresence } from '../../lib/presenceApi';
import { Avatar } from '../Avatar';
import { CalendarIcon } from '../icons';
import { FriendshipButton } from '../social/FriendshipButton';
import { MessageLink } from '../social/MessageLink';
import { OnlineBadge, PresenceLine } from '../presence/Presence';
import { avatarOf } from '../social/UserCard';

/**
 * A profile's header: avatar, display name (the screen's h1), @username, and
 * when the viewer may see details, bio and 'Joined <Month YYYY>'. Others get
 * the friendship button and, when they accept direct messages, 'Message'.
 */
export function ProfileHeader({ user, isSelf }: { user: OtherUser; isSelf: boolean }) {
  const joined = user.canViewDetails ? joinedLabel(user.joinDate || user.createdAt) : '';
  // Someone else's only: the server answers for friends who may see it, and nothing for anyone else.
  const presence = usePresence(isSelf ? [] : [user.id]).get(user.id);
  return (
    <ProfileHeaderCard
      avatar={
        <OnlineBadge online={presence?.online === true}>
          <Avatar user={avatarOf(user)} size={96} />
        </OnlineBadge>
      }
      user={user}
      bio={user.canViewDetails ? user.bio : null}
      actions={
        !isSelf && (
          <>
            <FriendshipButton user={user} />
            {user.allowDirectMessages && <MessageLink userId={user.id} />}
          </>
        )
      }
    >
      <title>{`${user.displayName} · Hoptrack`}</title>
      <PresenceLine entry={presence} className="profile-header__presence" />
      {joined && (
        <p className="profile-header__joined">
          <CalendarIcon width={16} height={16} />
          <span>{joined}</span>
        </p>
      )}
    </ProfileHeaderCard>
  );
}

interface ProfileHeaderCardProps {
  user: { displayName: string; username: string };
  /** The avatar, with whatever control belongs to it. */
  avatar: ReactNode;
  bio: string | null;
  /** h1 when the name is the screen's title (public profile), h2 below a page title (own profile). */
  nameLevel?: 1 | 2;
  /** Buttons on the right (wide) or below (narrow). */
  actions?: ReactNode;
  /** More lines below the bio. */
  children?: ReactNode;
}

/** The layout every profile header shares: avatar, name, @username, bio, extra lines, actions. */
export function ProfileHeaderCard({ user, avatar, bio, nameLevel = 1, actions, children }: ProfileHeaderCardProps) {
  const Name = nameLevel === 1 ? 'h1' : 'h2';
  return (
    <section className="card profile-header" aria-label="Profile">
      {avatar}
      <div className="profile-header__text">
        <Name className="profile-header__name">{user.displayName}</Name>
        <p className="profile-header__username">@{user.username}</p>
        {bio && <p className="profile-header__bio">{bio}</p>}
        {children}
      </div>
      {actions && <div className="profile-header__actions">{actions}</div>}
    </section>
  );
}
