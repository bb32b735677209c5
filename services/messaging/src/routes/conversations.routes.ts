import {
  conversation,
  conversationListQuery,
  conversationMessage,
  conversationReadResponse,
  idParams,
  messageListQuery,
  NEXT_CURSOR_HEADER,
  sendMessageBody,
  startConversationBody,
} from '@hoptrack/proto';
import { authOf, type Authenticate, type ServiceApp } from '@hoptrack/runtime';
import { z } from 'zod';
import type { Conversations } from '../domain/conversations';
import { conversationMessageView, conversationView, loadPeople } from '../domain/views';
import type { PrismaClient } from '../db';

/** The conversation API (spec 7, 'Messaging', first line). */
export function conversationsRoutes(app: ServiceApp, deps: { conversations: Conversations; prisma: PrismaClient; authenticate: Authenticate }): void {
  const { conversations, prisma } = deps;
  const guarded = { preHandler: deps.authenticate };

  app.get('/api/conversations', { ...guarded, schema: { querystring: conversationListQuery, response: { 200: z.array(conversation) } } }, async (request, reply) => {
    const viewerId = authOf(request).userId;
    const page = await conversations.list(viewerId, request.query.cursor, request.query.limit);
    if (page.next) reply.header(NEXT_CURSOR_HEADER, page.next);
    return page.items.map((c) => conversationView(c.conversation, viewerId, c.context));
  });

  // 201 for a new conversation, 200 for the pair's existing one.
  app.post('/api/conversations', { ...guarded, schema: { body: startConversationBody, response: { 200: conversation, 201: conversation } } }, async (request, reply) => {
    const viewerId = authOf(request).userId;
    const { conversation: started, created } = await conversations.start(viewerId, request.body.participantId);
    return reply.status(created ? 201 : 200).send(conversationView(started.conversation, viewerId, started.context));
  });

  app.get(
    '/api/conversations/:id/messages',
    { ...guarded, schema: { params: idParams, querystring: messageListQuery, response: { 200: z.array(conversationMessage) } } },
    async (request, reply) => {
      const page = await conversations.messages(authOf(request).userId, request.params.id, request.query.cursor, request.query.limit);
      if (page.next) reply.header(NEXT_CURSOR_HEADER, page.next);
      const people = await loadPeople(prisma, page.items.map((m) => m.senderId));
      return page.items.map((m) => conversationMessageView(m, people));
    },
  );

  app.post(
    '/api/conversations/:id/messages',
    { ...guarded, schema: { params: idParams, body: sendMessageBody, response: { 201: conversationMessage } } },
    async (request, reply) => {
      const message = await conversations.send(authOf(request).userId, request.params.id, request.body.content, request.id);
      return reply.status(201).send(conversationMessageView(message, await loadPeople(prisma, [message.senderId])));
    },
  );

  app.patch('/api/conversations/:id/read', { ...guarded, schema: { params: idParams, response: { 200: conversationReadResponse } } }, async (request) =>
    conversations.markConversationRead(authOf(request).userId, request.params.id, request.id),
  );
}
