import type { Notification } from '@hoptrack/proto';
import { Link } from 'react-router';
import { notificationHref } from '../../lib/notificationsApi';
import { Avatar } from '../Avatar';
import { RelativeTime } from '../RelativeTime';
import { avatarOf } from '../social/UserCard';

/** The emoji beside an entry, by its newest kind. */
const KIND_ICONS: Record<Notification['kind'], string> = {
  'friend.requested': '👋',
  'friend.accepted': '🤝',
  'session.liked': '❤️',
  'session.reacted': '🍻',
  'session.commented': '💬',
  'comment.followed': '💬',
  'message.received': '✉️',
  'challenge.completed': '🏆',
  'challenge.invited': '🎯',
};

/**
 * One inbox entry: the newest person's picture, the server's text ("Bob and
 * 3 others liked Friday pints"), when, and unread styling (a dot and the
 * words for screen readers). The whole entry links to its target; following
 * it marks it read. A read entry offers "Mark unread" beside it.
 */
export function NotificationItem({ item, onOpen, onMarkUnread }: { item: Notification; onOpen: (item: Notification) => void; onMarkUnread: (item: Notification) => void }) {
  const first = item.actors[0];
  return (
    <li className={`notification${item.read ? '' : ' notification--unread'}`} data-read={item.read}>
      <Link to={notificationHref(item)} className="notification__link" onClick={() => onOpen(item)}>
        {first ? <Avatar user={avatarOf(first)} size={40} /> : <span className="notification__icon-only" aria-hidden="true" />}
        <span className="notification__body">
          <span className="notification__text">
            {!item.read && <span className="visually-hidden">Unread: </span>}
            {item.text}
          </span>
          <span className="notification__meta">
            <span aria-hidden="true">{KIND_ICONS[item.kind]}</span>
            <RelativeTime at={item.createdAt} />
          </span>
        </span>
        {!item.read && <span className="notification__dot" aria-hidden="true" />}
      </Link>
      {item.read && (
        <button type="button" className="button button--ghost button--small notification__unread" onClick={() => onMarkUnread(item)}>
          Mark unread
        </button>
      )}
    </li>
  );
}
