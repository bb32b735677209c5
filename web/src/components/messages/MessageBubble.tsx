import { conversationTime } from '../../lib/format';

/** A message as both chat screens show it. */
export interface ChatLine {
  id: string;
  content: string;
  createdAt: string;
  /** Sent by the viewer: on the right, in amber. */
  own: boolean;
  isRead: boolean;
}

/**
 * One message: its text as typed (line breaks kept) and its time; under the
 * viewer's last message, whether the other has read it.
 */
export function MessageBubble({ line, receipt }: { line: ChatLine; receipt: boolean }) {
  return (
    <li className={`message${line.own ? ' message--own' : ''}`}>
      <div className="message__bubble">
        <p className="message__content">{line.content}</p>
        <time className="message__time" dateTime={line.createdAt}>
          {conversationTime(line.createdAt)}
        </time>
      </div>
      {receipt && (
        <p className="message__receipt" data-testid="read-receipt">
          {line.isRead ? 'Read' : 'Sent'}
        </p>
      )}
    </li>
  );
}
