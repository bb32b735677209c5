import type { messagingApi } from '@hoptrack/proto';
import { HttpError, REQUEST_ID_HEADER, type Handlers, type LiveHub } from '@hoptrack/runtime';
import type { PrismaClient } from '../db';
import type { Conversations } from '../domain/conversations';
import { conversationMessageView, conversationView, dmMessageView, loadPeople, threadView } from '../domain/views';
import type { Presence } from '../presence/presence';

export interface MessagingHandlersDeps {
  conversations: Conversations;
  prisma: PrismaClient;
  hub: LiveHub;
  presence: Presence;
}

/** The messaging service's handlers, one per contract of `messagingApi` (proto/src/contracts/messaging.ts). */
export function messagingHandlers(deps: MessagingHandlersDeps): Handlers<typeof messagingApi> {
  const { conversations, prisma, hub, presence } = deps;
  return {
    // ---- The conversation API (spec 7, 'Messaging', first line) ----
    conversations: async (request) => {
      const viewerId = request.auth.userId;
      const page = await conversations.list(viewerId, request.query.cursor, request.query.limit);
      return { items: page.items.map((c) => conversationView(c.conversation, viewerId, c.context)), next: page.next };
    },
    // 201 for a new conversation, 200 for the pair's existing one.
    startConversation: async (request, reply) => {
      const viewerId = request.auth.userId;
      const { conversation: started, created } = await conversations.start(viewerId, request.body.participantId);
      return reply.status(created ? 201 : 200).send(conversationView(started.conversation, viewerId, started.context));
    },
    conversationMessages: async (request) => {
      const page = await conversations.messages(request.auth.userId, request.params.id, request.query.cursor, request.query.limit);
      const people = await loadPeople(prisma, page.items.map((m) => m.senderId));
      return { items: page.items.map((m) => conversationMessageView(m, people)), next: page.next };
    },
    sendMessage: async (request) => {
      const message = await conversations.send(request.auth.userId, request.params.id, request.body.content, request.id);
      return conversationMessageView(message, await loadPeople(prisma, [message.senderId]));
    },
    markConversationRead: async (request) => conversations.markConversationRead(request.auth.userId, request.params.id, request.id),

    // ---- The older thread API (spec 7, 'Messaging', second line): the same store seen as DM threads ----
    threads: async (request) => {
      const viewerId = request.auth.userId;
      const page = await conversations.list(viewerId, request.query.cursor, request.query.limit);
      return { items: page.items.map((c) => threadView(c.conversation, viewerId, c.context)), next: page.next };
    },
    unread: async (request) => conversations.unread(request.auth.userId),
    thread: async (request) => {
      const page = await conversations.messagesWith(request.auth.userId, request.params.otherUserId, request.query.cursor, request.query.limit);
      return { items: page.items.map(dmMessageView), next: page.next };
    },
    sendDirect: async (request) => dmMessageView(await conversations.sendTo(request.auth.userId, request.body.toUserId, request.body.content, request.id)),
    markMessageRead: async (request) => dmMessageView(await conversations.markMessageRead(request.auth.userId, request.params.id, request.id)),

    // ---- Live delivery: the viewer's server-sent event stream (the runtime's LiveHub, fed by its startLiveFeed: see service.ts) ----
    live: async (request, reply) => {
      const { userId, tokenVersion } = request.auth;
      if (hub.isFull) throw new HttpError(503, 'Too many live connections on this instance, please retry');
      request.log.info({ userId }, 'live stream opened');
      // The stream outlives the handler: Fastify hands the raw response over and stays out of it.
      reply.hijack();
      hub.open(userId, tokenVersion, reply.raw, { [REQUEST_ID_HEADER]: request.id });
    },

    /**
     * Presence (issue 25, item 1): who of `ids` is online, for the dots on
     * friends' avatars. Only people the viewer may see are answered (friends with
     * Show Online Status on, no block); the rest are absent, whatever the reason.
     */
    presence: async (request) => presence.view(request.auth.userId, request.query.ids),
  };
}
