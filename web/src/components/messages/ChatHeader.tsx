import { Link } from 'react-router';
import { Avatar } from '../Avatar';
import { ArrowLeftIcon } from '../icons';

export interface ChatPerson {
  id: string;
  displayName: string;
  username: string;
  profilePicture: string | null;
}

/** The top of a chat: back to the list (narrow screens only), who it is with, a link to their profile. */
export function ChatHeader({ person, backTo, backLabel }: { person: ChatPerson; backTo: string; backLabel: string }) {
  return (
    <div className="chat-header">
      <Link to={backTo} className="icon-button chat-header__back" aria-label={backLabel} title={backLabel}>
        <ArrowLeftIcon width={18} height={18} />
      </Link>
      <Avatar user={person} size={40} />
      <div className="chat-header__text">
        <h2 className="chat-header__name">
          <Link to={`/users/${person.id}`}>{person.displayName}</Link>
        </h2>
        <span className="chat-header__username">@{person.username}</span>
      </div>
    </div>
  );
}
