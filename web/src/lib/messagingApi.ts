import { queryOptions, type InfiniteData, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { Conversation, ConversationMessage, MessagingPerson } from '@hoptrack/proto';
import { api } from '../api';
import { cursorPage, listItems, type CursorPage } from './cursorPages';

/**
 * Messaging (spec section 7, 'Messaging'). Two families read one store: the
 * conversations of /messages and the older threads of /dm. Keys are the
 * contracts' own: the conversation list and a conversation's messages have
 * their own query fns (pages travel by the `x-next-cursor` header), and
 * CONVERSATION_READS lists both; the DM threads, a thread (by the other
 * user's id) and the unread summary read their first page, and DM_READS
 * lists every DM read.
 */
export const CONVERSATION_LIST_KEY = api.messaging.conversations.key();
export const conversationMessagesKey = (conversationId: string) => api.messaging.conversationMessages.key({ params: { id: conversationId } });
export const CONVERSATION_READS: readonly QueryKey[] = [CONVERSATION_LIST_KEY, api.messaging.conversationMessages.key()];
export const DM_THREADS_KEY = api.messaging.threads.key();
export const dmThreadKey = (otherUserId: string) => api.messaging.thread.key({ params: { otherUserId } });
export const UNREAD_KEY = api.messaging.unread.key();
export const DM_READS: readonly QueryKey[] = [DM_THREADS_KEY, api.messaging.thread.key(), UNREAD_KEY];

export type ConversationListData = InfiniteData<CursorPage<Conversation>>;
/** Pages of a chat: the first is the newest messages, each page oldest first. */
export type ChatData = InfiniteData<CursorPage<ConversationMessage>>;

export const messagingApi = {
  conversationPage: (cursor?: string) => cursorPage(api.messaging.conversations.withResponse({ query: { cursor } })),
  messagePage: (conversationId: string, cursor?: string) =>
    cursorPage(api.messaging.conversationMessages.withResponse({ params: { id: conversationId }, query: { cursor } })),
  /** 201 with a new conversation, or 200 with the one that exists. */
  startConversation: (participantId: string) => api.messaging.startConversation({ body: { participantId } }),
  send: (conversationId: string, content: string) => api.messaging.sendMessage({ params: { id: conversationId }, body: { content } }),
  markRead: (conversationId: string) => api.messaging.markConversationRead({ params: { id: conversationId } }),
  sendDirect: (toUserId: string, content: string) => api.messaging.sendDirect({ body: { toUserId, content } }),
  markDirectRead: (messageId: string) => api.messaging.markMessageRead({ params: { id: messageId } }),
};

/** The /dm thread list (its first page). */
export const dmThreadsQuery = () => queryOptions({ queryKey: DM_THREADS_KEY, queryFn: () => api.messaging.threads() });
/** The thread with one person (its first page). */
export const dmThreadQuery = (otherUserId: string) =>
  queryOptions({ queryKey: dmThreadKey(otherUserId), queryFn: () => api.messaging.thread({ params: { otherUserId } }) });
/** The viewer's unread messages and conversations, counted (the navigation badge). */
export const unreadMessagesQuery = () => queryOptions({ queryKey: UNREAD_KEY, queryFn: () => api.messaging.unread() });

/** The participant who is not the viewer. */
export function otherParticipant(conversation: Conversation, viewerId: string): MessagingPerson {
  return conversation.participant1Id === viewerId ? conversation.participant2 : conversation.participant1;
}

/** A chat's loaded messages, oldest first: the pages run newest to oldest. */
export function chatMessages(data: ChatData | undefined): ConversationMessage[] {
  if (!data) return [];
  return listItems({ ...data, pages: [...data.pages].reverse() });
}

/** Puts a conversation the server just started or opened at the top of the cached list, unless it is there. */
export function rememberConversation(queryClient: QueryClient, conversation: Conversation): void {
  queryClient.setQueryData<ConversationListData>(CONVERSATION_LIST_KEY, (data) => {
    const [first, ...rest] = data?.pages ?? [];
    if (!data || !first) return data;
    if (data.pages.some((page) => page.items.some((item) => item.id === conversation.id))) return data;
    return { ...data, pages: [{ ...first, items: [conversation, ...first.items] }, ...rest] };
  });
}

/** Adds a message the viewer just sent to the end of the cached chat (the refetch that follows confirms it). */
export function appendChatMessage(queryClient: QueryClient, message: ConversationMessage): void {
  queryClient.setQueryData<ChatData>(conversationMessagesKey(message.conversationId), (data) => {
    const [newest, ...older] = data?.pages ?? [];
    if (!data || !newest || newest.items.some((item) => item.id === message.id)) return data;
    return { ...data, pages: [{ ...newest, items: [...newest.items, message] }, ...older] };
  });
}

/** Sets the unread count of a cached conversation (0 once it is read). */
export function patchUnreadCount(queryClient: QueryClient, conversationId: string, unreadCount: number): void {
  queryClient.setQueryData<ConversationListData>(CONVERSATION_LIST_KEY, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            items: page.items.map((item) => (item.id === conversationId ? { ...item, unreadCount } : item)),
          })),
        }
      : data,
  );
}

/**
 * Refetches what a message or a read receipt in one conversation changes:
 * the conversation list and its chat, the DM thread list and the thread with
 * the other participant, and the unread summary of the navigation badge.
 */
export function refreshConversation(queryClient: QueryClient, conversationId: string, otherUserId: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: CONVERSATION_LIST_KEY }),
    queryClient.invalidateQueries({ queryKey: conversationMessagesKey(conversationId) }),
    queryClient.invalidateQueries({ queryKey: DM_THREADS_KEY, exact: true }),
    queryClient.invalidateQueries({ queryKey: dmThreadKey(otherUserId) }),
    queryClient.invalidateQueries({ queryKey: UNREAD_KEY }),
  ]);
}

/** Refetches every messaging read (after a reconnect, something may have been missed). */
export function refreshAllMessaging(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([...CONVERSATION_READS, ...DM_READS].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
