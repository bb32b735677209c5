import { Link } from 'react-router';
import { conversationTime } from '../../lib/format';
import { Avatar } from '../Avatar';
import { PresenceAvatar } from '../presence/Presence';

export interface ConversationListEntry {
  to: string;
  /** The other person: their online dot, inside the list's PresenceScope. */
  userId: string;
  displayName: string;
  profilePicture: string | null;
  /** The last message as a line of text ('You: See you there'), or null before the first. */
  preview: string | null;
  lastAt: string | null;
  unreadCount: number;
  selected: boolean;
}

/** One conversation (or /dm thread) in a list: who, the last message and its time, the unread count. */
export function ConversationListItem({ entry }: { entry: ConversationListEntry }) {
  const unread = entry.unreadCount > 0;
  return (
    <li className={`conversation-item${unread ? ' conversation-item--unread' : ''}`} aria-label={entry.displayName}>
      <Link to={entry.to} className="conversation-item__link" aria-current={entry.selected ? 'true' : undefined}>
        <PresenceAvatar userId={entry.userId}>
          <Avatar user={entry} size={44} />
        </PresenceAvatar>
        <span className="conversation-item__text">
          <span className="conversation-item__top">
            <span className="conversation-item__name">{entry.displayName}</span>
            {entry.lastAt && (
              <time className="conversation-item__time" dateTime={entry.lastAt}>
                {conversationTime(entry.lastAt)}
              </time>
            )}
          </span>
          <span className="conversation-item__bottom">
            <span className="conversation-item__preview">{entry.preview ?? 'No messages yet'}</span>
            {unread && (
              <span className="conversation-item__unread" data-testid="unread-count">
                {entry.unreadCount}
                <span className="visually-hidden"> unread</span>
              </span>
            )}
          </span>
        </span>
      </Link>
    </li>
  );
}
