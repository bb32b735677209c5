import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import {
  type Conversation,
  type ConversationMessage,
  type ConversationReadResponse,
  type DirectMessageBody,
  type DmMessage,
  type MessagingPerson,
  type SendMessageBody,
  type StartConversationBody,
} from '@hoptrack/proto';
import { apiRequest } from './api';
import { cursorPage, listItems, type CursorPage } from './cursorPages';

/**
 * Messaging (spec section 7, 'Messaging'). Two families read one store: the
 * conversations of /messages and the older threads of /dm. Keys are URL
 * parts: the conversation list and a conversation's messages hang below
 * `['/api/conversations']` with their own query fns (pages travel by the
 * `x-next-cursor` header); the DM threads (`['/api/messages']`), a thread
 * (`[..., otherUserId]`) and the unread summary (`[..., 'unread']`) are plain
 * URL keys read by the default query fn, so `['/api/messages']` as a prefix
 * addresses every DM read.
 */
export const CONVERSATIONS_ROOT = ['/api/conversations'] as const;
export const CONVERSATION_LIST_KEY = [...CONVERSATIONS_ROOT, 'list'] as const;
export const conversationMessagesKey = (conversationId: string) => [...CONVERSATIONS_ROOT, conversationId, 'messages'] as const;
export const DM_ROOT = ['/api/messages'] as const;
export const DM_THREADS_KEY = DM_ROOT;
export const dmThreadKey = (otherUserId: string) => [...DM_ROOT, otherUserId] as const;
export const UNREAD_KEY = [...DM_ROOT, 'unread'] as const;

export type ConversationListData = InfiniteData<CursorPage<Conversation>>;
/** Pages of a chat: the first is the newest messages, each page oldest first. */
export type ChatData = InfiniteData<CursorPage<ConversationMessage>>;

const conversationUrl = (id: string) => `/api/conversations/${encodeURIComponent(id)}`;

export const messagingApi = {
  conversationPage: (cursor?: string) => cursorPage<Conversation>('/api/conversations', cursor),
  messagePage: (conversationId: string, cursor?: string) =>
    cursorPage<ConversationMessage>(`${conversationUrl(conversationId)}/messages`, cursor),
  /** 201 with a new conversation, or 200 with the one that exists. */
  startConversation: (participantId: string) =>
    apiRequest<Conversation>('POST', '/api/conversations', { participantId } satisfies StartConversationBody),
  send: (conversationId: string, content: string) =>
    apiRequest<ConversationMessage>('POST', `${conversationUrl(conversationId)}/messages`, { content } satisfies SendMessageBody),
  markRead: (conversationId: string) => apiRequest<ConversationReadResponse>('PATCH', `${conversationUrl(conversationId)}/read`),
  sendDirect: (toUserId: string, content: string) =>
    apiRequest<DmMessage>('POST', '/api/messages', { toUserId, content } satisfies DirectMessageBody),
  markDirectRead: (messageId: string) => apiRequest<DmMessage>('PUT', `/api/messages/${encodeURIComponent(messageId)}/read`),
};

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
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: CONVERSATIONS_ROOT }),
    queryClient.invalidateQueries({ queryKey: DM_ROOT }),
  ]);
}
