import { z } from 'zod';
import { idParams } from '../common';
import { LIVE_EVENTS_PATH, PRESENCE_PATH } from '../constants';
import {
  conversation,
  conversationListQuery,
  conversationMessage,
  conversationReadResponse,
  directMessageBody,
  dmMessage,
  dmThread,
  messageListQuery,
  otherUserParams,
  presenceList,
  presenceQuery,
  sendMessageBody,
  startConversationBody,
  unreadSummary,
} from '../messaging';
import { defineRoutes } from './define';

/**
 * Messaging: the conversation API (spec 7, 'Messaging', first line), the
 * older thread API over the same store (second line), the live event stream
 * and presence (issue 25).
 */
export const messagingApi = defineRoutes('messaging', {
  // ---- Conversations ----
  conversations: {
    method: 'GET',
    path: '/api/conversations',
    paged: true,
    summary: "The viewer's conversations, a page at a time",
    query: conversationListQuery,
    responses: { 200: z.array(conversation) },
  },
  startConversation: {
    method: 'POST',
    path: '/api/conversations',
    summary: "Open the conversation with someone: 201 when new, 200 for the pair's existing one",
    body: startConversationBody,
    responses: { 200: conversation, 201: conversation },
  },
  conversationMessages: {
    method: 'GET',
    path: '/api/conversations/:id/messages',
    paged: true,
    summary: "A conversation's messages, a page at a time",
    params: idParams,
    query: messageListQuery,
    responses: { 200: z.array(conversationMessage) },
  },
  sendMessage: {
    method: 'POST',
    path: '/api/conversations/:id/messages',
    summary: 'Send a message in a conversation',
    params: idParams,
    body: sendMessageBody,
    responses: { 201: conversationMessage },
  },
  markConversationRead: {
    method: 'PATCH',
    path: '/api/conversations/:id/read',
    summary: 'Mark every message to the viewer in a conversation read',
    params: idParams,
    responses: { 200: conversationReadResponse },
  },

  // ---- Threads: the same store seen as direct-message threads ----
  threads: {
    method: 'GET',
    path: '/api/messages',
    paged: true,
    summary: "The viewer's threads, a page at a time",
    query: conversationListQuery,
    responses: { 200: z.array(dmThread) },
  },
  unread: {
    method: 'GET',
    // Static paths win over `:otherUserId` in the router, whatever the order here.
    path: '/api/messages/unread',
    summary: "The viewer's unread messages and conversations, counted",
    responses: { 200: unreadSummary },
  },
  thread: {
    method: 'GET',
    path: '/api/messages/:otherUserId',
    paged: true,
    summary: 'The thread with one person, a page at a time',
    params: otherUserParams,
    query: messageListQuery,
    responses: { 200: z.array(dmMessage) },
  },
  sendDirect: {
    method: 'POST',
    path: '/api/messages',
    summary: 'Send a message to a person, starting the conversation if there is none',
    body: directMessageBody,
    responses: { 201: dmMessage },
  },
  markMessageRead: {
    method: 'PUT',
    path: '/api/messages/:id/read',
    summary: 'Mark one message to the viewer read',
    params: idParams,
    responses: { 200: dmMessage },
  },

  // ---- Live delivery and presence ----
  live: {
    method: 'GET',
    path: LIVE_EVENTS_PATH,
    summary: "The viewer's server-sent events: new messages and read receipts",
    stream: true,
  },
  presence: {
    method: 'GET',
    path: PRESENCE_PATH,
    summary: 'Which of some people are online, as far as the viewer may see',
    query: presenceQuery,
    responses: { 200: presenceList },
  },
});
