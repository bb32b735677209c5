import { useQuery } from '@tanstack/react-query';
import { dmThreadQuery } from '../../lib/messagingApi';
import { useMarkDirectRead, useSendDirect } from '../../lib/useMessaging';
import { LoadingState } from '../LoadingState';
import { ChatHeader, type ChatPerson } from '../messages/ChatHeader';
import { ChatLog } from '../messages/ChatLog';
import { Composer } from '../messages/Composer';
import { ListError } from '../social/UserList';

/**
 * An open /dm thread: GET /api/messages/{otherUserId}, each unread message
 * from the other marked read, and the message box (Enter sends,
 * Shift+Enter starts a new line).
 */
export function DmChat({ person, viewerId, canMessage }: { person: ChatPerson; viewerId: string; canMessage: boolean }) {
  const messages = useQuery(dmThreadQuery(person.id));
  useMarkDirectRead(person.id, messages.data, viewerId);
  const send = useSendDirect(person.id);
  return (
    <section className="card chat-pane" aria-label={`Chat with ${person.displayName}`}>
      <ChatHeader person={person} backTo="/dm" backLabel="Back to threads" />
      {messages.isPending ? (
        <LoadingState label="Loading messages..." />
      ) : messages.isError ? (
        <ListError text="Failed to load messages" onRetry={() => void messages.refetch()} />
      ) : (
        <ChatLog
          label={`Messages with ${person.displayName}`}
          lines={messages.data.map((message) => ({ ...message, own: message.fromUserId === viewerId }))}
        />
      )}
      <Composer
        onSend={(content) => send.mutateAsync(content)}
        sending={send.isPending}
        blockedNote={canMessage ? undefined : `${person.displayName} does not accept direct messages.`}
      />
    </section>
  );
}
