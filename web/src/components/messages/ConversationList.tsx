import type { Conversation } from '@hoptrack/proto';
import { listItems } from '../../lib/cursorPages';
import { LoadMoreButton } from '../LoadMoreButton';
import { otherParticipant } from '../../lib/messagingApi';
import type { useConversationList } from '../../lib/useMessaging';
import { EmptyState } from '../EmptyState';
import { MessageIcon } from '../icons';
import { avatarOf } from '../social/UserCard';
import { ListError } from '../social/UserList';
import { PresenceScope } from '../presence/Presence';
import { ConversationListItem } from './ConversationListItem';
import { ConversationListSkeleton } from './ConversationListSkeleton';
import { RefreshFailed } from '../RefreshFailed';

interface ConversationListProps {
  list: ReturnType<typeof useConversationList>;
  viewerId: string;
  selectedId: string | null;
}

/**
 * The viewer's conversations, most recent first: 5 skeleton rows while the
 * first page loads, an error with a retry, the empty state, or the rows and
 * 'Load more' while the server has older ones.
 */
export function ConversationList({ list, viewerId, selectedId }: ConversationListProps) {
  if (list.isPending) return <ConversationListSkeleton />;
  if (list.isLoadingError) {
    return <ListError text="Failed to load conversations" onRetry={() => void list.refetch()} />;
  }
  const conversations = listItems(list.data);
  if (conversations.length === 0) {
    return <EmptyState title="No conversations yet" text="Search for someone above to start chatting." Icon={MessageIcon} headingLevel={3} />;
  }
  return (
    <PresenceScope ids={conversations.map((conversation) => otherParticipant(conversation, viewerId).id)}>
      {list.isRefetchError && <RefreshFailed onRetry={() => void list.refetch()} />}
      <ul className="conversation-list" aria-label="Conversations">
        {conversations.map((conversation) => (
          <ConversationListItem key={conversation.id} entry={entryOf(conversation, viewerId, conversation.id === selectedId)} />
        ))}
      </ul>
      <LoadMoreButton pages={list} label="Load more conversations" className="button button--ghost button--small" />
    </PresenceScope>
  );
}

function entryOf(conversation: Conversation, viewerId: string, selected: boolean) {
  const other = otherParticipant(conversation, viewerId);
  const last = conversation.lastMessage;
  return {
    ...avatarOf(other),
    userId: other.id,
    to: `/messages?conversation=${encodeURIComponent(conversation.id)}`,
    preview: last ? `${last.senderId === viewerId ? 'You: ' : ''}${last.content}` : null,
    lastAt: last?.createdAt ?? conversation.lastMessageAt,
    unreadCount: conversation.unreadCount,
    selected,
  };
}
