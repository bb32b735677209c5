import {
  blockedUser,
  blockRequest,
  friend,
  friendRequest,
  friendship,
  friendshipCreateRequest,
  friendshipRespondRequest,
  idParams,
  pinRequest,
  userIdParams,
} from '@hoptrack/proto';
import { authOf, type Authenticate, type ServiceApp } from '@hoptrack/runtime';
import { z } from 'zod';
import type { SocialGraph } from '../domain/social-graph';

const respondResponse = z.object({ id: z.string(), status: z.enum(['accepted', 'rejected']) });

/** Friend requests (/api/friendships) and the viewer's own friends, pins, mutes and blocks (/api/friends, /api/me/...). */
export function friendsRoutes(app: ServiceApp, graph: SocialGraph, authenticate: Authenticate): void {
  const guarded = { preHandler: authenticate };

  app.post(
    '/api/friendships',
    { ...guarded, schema: { body: friendshipCreateRequest, response: { 201: friendship } } },
    async (request, reply) => reply.status(201).send(await graph.requestFriendship(authOf(request).userId, request.body.friendId, request.id)),
  );

  app.patch(
    '/api/friendships/:id',
    { ...guarded, schema: { params: idParams, body: friendshipRespondRequest, response: { 200: respondResponse } } },
    async (request) => graph.respond(authOf(request).userId, request.params.id, request.body.action, request.id),
  );

  for (const url of ['/api/friends', '/api/me/friends']) {
    app.get(url, { ...guarded, schema: { response: { 200: z.array(friend) } } }, async (request) => graph.friends(authOf(request).userId));
  }
  app.get('/api/friends/pinned', { ...guarded, schema: { response: { 200: z.array(friend) } } }, async (request) =>
    graph.friends(authOf(request).userId, true),
  );
  for (const url of ['/api/friends/requests', '/api/me/friend-requests']) {
    app.get(url, { ...guarded, schema: { response: { 200: z.array(friendRequest) } } }, async (request) =>
      graph.incomingRequests(authOf(request).userId),
    );
  }
  app.get('/api/friends/blocked', { ...guarded, schema: { response: { 200: z.array(blockedUser) } } }, async (request) =>
    graph.blocked(authOf(request).userId),
  );

  // Changes to one relationship answer 204; {id} is the other user's id.
  const change = (
    method: 'post' | 'delete',
    url: string,
    act: (viewerId: string, otherId: string, requestId: string, body: { reason?: string; order?: number } | null | undefined) => Promise<void>,
    body?: z.ZodType,
  ) =>
    app[method](url, { ...guarded, schema: { params: userIdParams, ...(body ? { body: body.nullish() } : {}) } }, async (request, reply) => {
      await act(authOf(request).userId, request.params.id, request.id, request.body as { reason?: string; order?: number } | null | undefined);
      return reply.status(204).send();
    });

  change('delete', '/api/friends/:id', (me, other, rid) => graph.unfriend(me, other, rid));
  change('post', '/api/friends/:id/block', (me, other, rid, body) => graph.block(me, other, body?.reason, rid), blockRequest);
  change('delete', '/api/friends/:id/block', (me, other, rid) => graph.unblock(me, other, rid));
  change('post', '/api/friends/:id/mute', (me, other, rid) => graph.setMuted(me, other, true, rid));
  change('delete', '/api/friends/:id/mute', (me, other, rid) => graph.setMuted(me, other, false, rid));
  change('post', '/api/friends/:id/pin', (me, other, rid, body) => graph.pin(me, other, body?.order, rid), pinRequest);
  change('delete', '/api/friends/:id/pin', (me, other, rid) => graph.unpin(me, other, rid));
}
