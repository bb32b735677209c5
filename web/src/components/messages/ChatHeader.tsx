import { Link } from 'react-router';
import { Avatar } from '../Avatar';
import { ArrowLeftIcon } from '../icons';
import { OnlineBadge, PresenceLine } from '../presence/Presence';
import { usePresence } from '../../lib/presenceApi';
import { useTooltip } from '../Tooltip';

export interface ChatPerson {
  id: string;
  displayName: string;
  username: string;
  profilePicture: string | null;
}

/** The top of a chat: back to the list (narrow screens only), who it is with (online, or last seen, to a friend who may see it), a link to their profile. */
export function ChatHeader({ person, backTo, backLabel }: { person: ChatPerson; backTo: string; backLabel: string }) {
  const presence = usePresence([person.id]).get(person.id);
  const { triggerProps, tooltip } = useTooltip(backLabel);
  return (
    <div className="chat-header">
      <Link to={backTo} className="icon-button chat-header__back" aria-label={backLabel} {...triggerProps}>
        <ArrowLeftIcon width={18} height={18} />
      </Link>
      {tooltip}
      <OnlineBadge online={presence?.online === true}>
        <Avatar user={person} size={40} />
      </OnlineBadge>
      <div className="chat-header__text">
        {/* A deleted account (no username): 'Deleted user', no profile to open and no dangling '@'. */}
        <h2 className="chat-header__name">{person.username ? <Link to={`/users/${person.id}`}>{person.displayName}</Link> : person.displayName}</h2>
        {person.username && <span className="chat-header__username">@{person.username}</span>}
        <PresenceLine entry={presence} className="chat-header__presence" />
      </div>
    </div>
  );
}
