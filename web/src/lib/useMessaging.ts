import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Conversation, ConversationMessage, DmMessage } from '@hoptrack/proto';
import { useEffect, useEffectEvent, useRef } from 'react';
import { serverError } from '../api';
import {
  appendChatMessage,
  CONVERSATION_LIST_KEY,
  CONVERSATION_READS,
  conversationMessagesKey,
  dmThreadKey,
  DM_THREADS_KEY,
  messagingApi,
  patchUnreadCount,
  rememberConversation,
  UNREAD_KEY,
  type ChatData,
} from './messagingApi';
import { useToast, type ToastInput } from './toast';

/** A failed messaging call: the spec's text as the title, the server's reason below it when there is one. */
function failureToast(error: unknown, title: string): ToastInput {
  const message = serverError(error)?.message;
  return { title, ...(message ? { description: message } : {}), variant: 'destructive' };
}

/** The viewer's conversations, most recent activity first, a page at a time. */
export function useConversationList() {
  return useInfiniteQuery({
    queryKey: CONVERSATION_LIST_KEY,
    queryFn: ({ pageParam }) => messagingApi.conversationPage(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** One conversation's messages: the newest page first, older pages on demand. */
export function useChat(conversationId: string) {
  return useInfiniteQuery({
    queryKey: conversationMessagesKey(conversationId),
    queryFn: ({ pageParam }) => messagingApi.messagePage(conversationId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/**
 * `/messages?user={id}`: POST /api/conversations once per requested user,
 * then `onOpened` with the new or existing conversation (kept at the top of
 * the cached list). A failure toasts 'Failed to start conversation' and calls
 * `onFailed`.
 */
export function useStartConversation(userId: string | null, onOpened: (conversation: Conversation) => void, onFailed: () => void) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const start = useMutation({
    mutationFn: messagingApi.startConversation,
    onSuccess: (conversation) => {
      rememberConversation(queryClient, conversation);
      onOpened(conversation);
    },
    onError: (error) => {
      toast(failureToast(error, 'Failed to start conversation'));
      onFailed();
    },
  });
  const requested = useRef<string | null>(null);
  const request = useEffectEvent((id: string) => start.mutate(id));
  useEffect(() => {
    if (userId === requested.current) return;
    requested.current = userId;
    if (userId) request(userId);
  }, [userId]);
  return start;
}

/** The newest message of the other participant the viewer has not read yet. */
function newestUnreadId(messages: readonly ConversationMessage[], viewerId: string): string | null {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message && message.senderId !== viewerId && !message.isRead) return message.id;
  }
  return null;
}

/**
 * Opening a conversation marks it read (spec section 4), and so does a new
 * message arriving while it is open: whenever the loaded messages hold one
 * from the other participant not yet read, PATCH …/read (once per newest
 * such message). A failure toasts 'Failed to mark as read'.
 */
export function useMarkConversationRead(conversationId: string, messages: readonly ConversationMessage[], viewerId: string): void {
  const queryClient = useQueryClient();
  const toast = useToast();
  const mark = useMutation({
    mutationFn: () => messagingApi.markRead(conversationId),
    onSuccess: () => {
      patchUnreadCount(queryClient, conversationId, 0);
      queryClient.setQueryData<ChatData>(conversationMessagesKey(conversationId), (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                items: page.items.map((item) => (item.senderId === viewerId ? item : { ...item, isRead: true })),
              })),
            }
          : data,
      );
      void queryClient.invalidateQueries({ queryKey: UNREAD_KEY });
      void queryClient.invalidateQueries({ queryKey: DM_THREADS_KEY, exact: true });
    },
    onError: (error) => toast(failureToast(error, 'Failed to mark as read')),
  });
  const unreadId = newestUnreadId(messages, viewerId);
  const handled = useRef<string | null>(null);
  const markNow = useEffectEvent(() => mark.mutate());
  useEffect(() => {
    if (!unreadId || unreadId === handled.current || mark.isPending) return;
    handled.current = unreadId;
    markNow();
  }, [unreadId, mark.isPending]);
}

/** Sends into a conversation; the message shows at once, the list and badges follow. Failure: 'Failed to send message'. */
export function useSendMessage(conversationId: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (content: string) => messagingApi.send(conversationId, content),
    onSuccess: (message) => {
      appendChatMessage(queryClient, message);
      void queryClient.invalidateQueries({ queryKey: CONVERSATION_LIST_KEY });
      void queryClient.invalidateQueries({ queryKey: DM_THREADS_KEY, exact: true });
    },
    onError: (error) => toast(failureToast(error, 'Failed to send message')),
  });
}

/** Sends in a /dm thread; the message shows at once, the thread list follows. Failure: 'Failed to send message'. */
export function useSendDirect(otherUserId: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (content: string) => messagingApi.sendDirect(otherUserId, content),
    onSuccess: (message) => {
      queryClient.setQueryData<DmMessage[]>(dmThreadKey(otherUserId), (list) =>
        list && !list.some((item) => item.id === message.id) ? [...list, message] : list,
      );
      void queryClient.invalidateQueries({ queryKey: DM_THREADS_KEY, exact: true });
      void queryClient.invalidateQueries({ queryKey: CONVERSATION_LIST_KEY });
    },
    onError: (error) => toast(failureToast(error, 'Failed to send message')),
  });
}

/**
 * /dm (spec section 4): opening a thread marks each unread message not sent
 * by the viewer read, one PUT /api/messages/{id}/read each (every id once).
 * A failure toasts 'Failed to mark as read'.
 */
export function useMarkDirectRead(otherUserId: string, messages: readonly DmMessage[] | undefined, viewerId: string): void {
  const queryClient = useQueryClient();
  const toast = useToast();
  const requested = useRef(new Set<string>());
  const mark = useMutation({
    mutationFn: (ids: readonly string[]) => Promise.all(ids.map((id) => messagingApi.markDirectRead(id))),
    onSuccess: (marked) => {
      const byId = new Map(marked.map((message) => [message.id, message]));
      queryClient.setQueryData<DmMessage[]>(dmThreadKey(otherUserId), (list) => list?.map((item) => byId.get(item.id) ?? item));
    },
    onError: (error) => toast(failureToast(error, 'Failed to mark as read')),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: DM_THREADS_KEY, exact: true }),
        queryClient.invalidateQueries({ queryKey: UNREAD_KEY }),
        ...CONVERSATION_READS.map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ]),
  });
  const unread = (messages ?? []).filter((message) => message.fromUserId !== viewerId && !message.isRead);
  const pendingIds = unread.map((message) => message.id).filter((id) => !requested.current.has(id));
  const key = pendingIds.join(',');
  const markNow = useEffectEvent((ids: string[]) => mark.mutate(ids));
  useEffect(() => {
    if (!key) return;
    const ids = key.split(',');
    for (const id of ids) requested.current.add(id);
    markNow(ids);
  }, [key]);
}
