import type { UseQueryResult } from '@tanstack/react-query';
import type { DmThread } from '@hoptrack/proto';
import { Link } from 'react-router';
import { EmptyState } from '../EmptyState';
import { MessageIcon } from '../icons';
import { ConversationListItem } from '../messages/ConversationListItem';
import { ConversationListSkeleton } from '../messages/ConversationListSkeleton';
import { PresenceScope } from '../presence/Presence';
import { ListError } from '../social/UserList';

/** /dm's threads, most recent first: skeleton, error with a retry, the empty state, or the rows. */
export function ThreadList({ threads, selectedUserId, viewerId }: { threads: UseQueryResult<DmThread[]>; selectedUserId: string | null; viewerId: string }) {
  if (threads.isPending) return <ConversationListSkeleton label="Loading threads" />;
  if (threads.isError) return <ListError text="Failed to load messages" onRetry={() => void threads.refetch()} />;
  if (threads.data.length === 0) {
    return (
      <EmptyState title="No messages yet" text="Start a conversation from Messages or from someone's profile." Icon={MessageIcon} headingLevel={3}>
        <Link to="/messages" className="button button--secondary button--small">
          Go to Messages
        </Link>
      </EmptyState>
    );
  }
  return (
    <PresenceScope ids={threads.data.map((thread) => thread.otherUserId)}>
      <ul className="conversation-list" aria-label="Threads">
        {threads.data.map((thread) => (
          <ConversationListItem
            key={thread.id}
            entry={{
              to: `/dm?user=${encodeURIComponent(thread.otherUserId)}`,
              userId: thread.otherUserId,
              displayName: thread.otherUserDisplayName,
              profilePicture: thread.otherUserProfilePicture,
              preview: thread.lastMessageContent && `${thread.lastMessageSenderId === viewerId ? 'You: ' : ''}${thread.lastMessageContent}`,
              lastAt: thread.lastMessageAt,
              unreadCount: thread.hasUnreadMessages ? Math.max(thread.unreadCount, 1) : 0,
              selected: thread.otherUserId === selectedUserId,
            }}
          />
        ))}
      </ul>
    </PresenceScope>
  );
}
