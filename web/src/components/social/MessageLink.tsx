import { Link } from 'react-router';
import { MessageIcon } from '../icons';

/** 'Message': opens /messages with a conversation with this user. */
export function MessageLink({ userId }: { userId: string }) {
  return (
    <Link to={`/messages?user=${encodeURIComponent(userId)}`} className="button button--ghost button--small">
      <MessageIcon width={16} height={16} />
      <span>Message</span>
    </Link>
  );
}
