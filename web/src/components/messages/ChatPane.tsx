import type { Conversation } from '@hoptrack/proto';
import { chatMessages, otherParticipant } from '../../lib/messagingApi';
import { useChat, useMarkConversationRead, useSendMessage } from '../../lib/useMessaging';
import { LoadingState } from '../LoadingState';
import { LoadMoreButton } from '../LoadMoreButton';
import { avatarOf } from '../social/UserCard';
import { ListError } from '../social/UserList';
import { ChatHeader } from './ChatHeader';
import { ChatLog } from './ChatLog';
import { Composer } from './Composer';

/**
 * An open conversation: who it is with, its messages (newest page first,
 * older on demand), marked read while open, and the message box, disabled
 * with a note when the other participant does not accept direct messages.
 */
export function ChatPane({ conversation, viewerId }: { conversation: Conversation; viewerId: string }) {
  const other = otherParticipant(conversation, viewerId);
  const chat = useChat(conversation.id);
  const messages = chatMessages(chat.data);
  useMarkConversationRead(conversation.id, messages, viewerId);
  const send = useSendMessage(conversation.id);

  return (
    <section className="card chat-pane" aria-label={`Chat with ${other.displayName}`}>
      <ChatHeader person={{ ...other, ...avatarOf(other) }} backTo="/messages" backLabel="Back to conversations" />
      {chat.isPending ? (
        <LoadingState label="Loading messages..." />
      ) : chat.isError && !chat.isFetchNextPageError ? (
        <ListError text="Failed to load messages" onRetry={() => void chat.refetch()} />
      ) : (
        <ChatLog
          label={`Messages with ${other.displayName}`}
          lines={messages.map((message) => ({ ...message, own: message.senderId === viewerId }))}
          before={<LoadMoreButton pages={chat} label="Load older messages" className="button button--ghost button--small chat-log__older" />}
        />
      )}
      <Composer
        onSend={(content) => send.mutateAsync(content)}
        sending={send.isPending}
        blockedNote={conversation.canMessage ? undefined : `${other.displayName} does not accept direct messages.`}
      />
    </section>
  );
}
