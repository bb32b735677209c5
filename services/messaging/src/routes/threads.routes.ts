import { directMessageBody, dmMessage, dmThread, conversationListQuery, idParams, messageListQuery, NEXT_CURSOR_HEADER, otherUserParams, unreadSummary } from '@hoptrack/proto';
import { authOf, type Authenticate, type ServiceApp } from '@hoptrack/runtime';
import { z } from 'zod';
import type { Conversations } from '../domain/conversations';
import { dmMessageView, threadView } from '../domain/views';

/** The older thread API (spec 7, 'Messaging', second line): the same store seen as DM threads. */
export function threadsRoutes(app: ServiceApp, deps: { conversations: Conversations; authenticate: Authenticate }): void {
  const { conversations } = deps;
  const guarded = { preHandler: deps.authenticate };

  app.get('/api/messages', { ...guarded, schema: { querystring: conversationListQuery, response: { 200: z.array(dmThread) } } }, async (request, reply) => {
    const viewerId = authOf(request).userId;
    const page = await conversations.list(viewerId, request.query.cursor, request.query.limit);
    if (page.next) reply.header(NEXT_CURSOR_HEADER, page.next);
    return page.items.map((c) => threadView(c.conversation, viewerId, c.context));
  });

  // Static paths win over `:otherUserId` in Fastify's router, whatever the order here.
  app.get('/api/messages/unread', { ...guarded, schema: { response: { 200: unreadSummary } } }, async (request) => conversations.unread(authOf(request).userId));

  app.get(
    '/api/messages/:otherUserId',
    { ...guarded, schema: { params: otherUserParams, querystring: messageListQuery, response: { 200: z.array(dmMessage) } } },
    async (request, reply) => {
      const page = await conversations.messagesWith(authOf(request).userId, request.params.otherUserId, request.query.cursor, request.query.limit);
      if (page.next) reply.header(NEXT_CURSOR_HEADER, page.next);
      return page.items.map(dmMessageView);
    },
  );

  app.post('/api/messages', { ...guarded, schema: { body: directMessageBody, response: { 201: dmMessage } } }, async (request, reply) => {
    const message = await conversations.sendTo(authOf(request).userId, request.body.toUserId, request.body.content, request.id);
    return reply.status(201).send(dmMessageView(message));
  });

  app.put('/api/messages/:id/read', { ...guarded, schema: { params: idParams, response: { 200: dmMessage } } }, async (request) =>
    dmMessageView(await conversations.markMessageRead(authOf(request).userId, request.params.id, request.id)),
  );
}
