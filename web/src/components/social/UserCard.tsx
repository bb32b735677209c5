import type { UserCard as UserCardData } from '@hoptrack/proto';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../Avatar';
import { PresenceAvatar } from '../presence/Presence';

export type CardUser = Pick<UserCardData, 'id' | 'username' | 'displayName' | 'profilePicture' | 'avatar'>;

/** The picture a user shows: their uploaded profile picture, else the avatar URL, else initials. */
export function avatarOf(user: Pick<CardUser, 'displayName' | 'profilePicture' | 'avatar'>) {
  return { displayName: user.displayName, profilePicture: user.profilePicture ?? user.avatar };
}

interface UserCardProps {
  user: CardUser;
  /**
   * What the whole card does: `link` opens /users/{id}, a function is called
   * (e.g. to open a modal), `none` leaves the card inert.
   */
  open: 'link' | 'none' | (() => void);
  /** A line below the username: badges, a reason, a date. */
  meta?: ReactNode;
  /** Buttons and links on the right (wide) or below (narrow). */
  actions?: ReactNode;
}

/**
 * One user in a list (search results, requests, friends, followers,
 * blocked): avatar, display name, @username. The name is the card's link or
 * button and stretches over the whole card; the actions stay clickable above it.
 */
export function UserCard({ user, open, meta, actions }: UserCardProps) {
  return (
    <li className="user-card" aria-label={user.displayName}>
      <PresenceAvatar userId={user.id}>
        <Avatar user={avatarOf(user)} size={48} />
      </PresenceAvatar>
      <div className="user-card__text">
        <UserCardName user={user} open={open} />
        {user.username && <span className="user-card__username">@{user.username}</span>}
        {meta && <div className="user-card__meta">{meta}</div>}
      </div>
      {actions && <div className="user-card__actions">{actions}</div>}
    </li>
  );
}

function UserCardName({ user, open }: Pick<UserCardProps, 'user' | 'open'>) {
  if (open === 'link') {
    return (
      <Link to={`/users/${user.id}`} className="user-card__name user-card__stretch">
        {user.displayName}
      </Link>
    );
  }
  if (open === 'none') return <span className="user-card__name">{user.displayName}</span>;
  return (
    <button type="button" className="user-card__name user-card__stretch" aria-haspopup="dialog" onClick={open}>
      {user.displayName}
    </button>
  );
}
