import type { OtherUser } from '@hoptrack/proto';
import { Link } from 'react-router';
import { joinedLabel } from '../../lib/format';
import { Avatar } from '../Avatar';
import { cameFrom } from '../BackLink';
import { CalendarIcon, MailIcon } from '../icons';
import { Modal } from '../Modal';
import { FriendshipButton } from './FriendshipButton';
import { avatarOf } from './UserCard';

/**
 * The /search profile preview (role="dialog"): avatar, name, @username, bio,
 * e-mail (only when the server shares it), join date, the friendship button
 * and 'View Profile'.
 */
export function ProfileModal({ user, onClose }: { user: OtherUser; onClose: () => void }) {
  const joined = joinedLabel(user.joinDate || user.createdAt);
  return (
    <Modal open title={user.displayName} description={`@${user.username}`} onClose={onClose}>
      <div className="profile-modal">
        <Avatar user={avatarOf(user)} size={80} />
        {user.bio && <p className="profile-modal__bio">{user.bio}</p>}
        <ul className="profile-modal__facts">
          {user.email && (
            <li>
              <MailIcon width={16} height={16} />
              <span>{user.email}</span>
            </li>
          )}
          {joined && (
            <li>
              <CalendarIcon width={16} height={16} />
              <span>{joined}</span>
            </li>
          )}
        </ul>
        <div className="button-row button-row--center">
          <FriendshipButton user={user} />
          <Link to={`/users/${user.id}`} state={cameFrom('/search', 'Back to Search')} className="button button--secondary button--small">
            View Profile
          </Link>
        </div>
      </div>
    </Modal>
  );
}
