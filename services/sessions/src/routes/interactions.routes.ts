import { commentBody, idParams, likeListQuery, likeResponse, NEXT_CURSOR_HEADER, reactionBody, reactionSummary, sessionComment, sessionCommentParams, sessionLike } from '@hoptrack/proto';
import { authOf, type Authenticate, type ServiceApp } from '@hoptrack/runtime';
import { z } from 'zod';
import type { Interactions } from '../domain/interactions';

/** Likes, comments and reactions on a session (spec 7, 'Sessions'). */
export function interactionsRoutes(app: ServiceApp, interactions: Interactions, authenticate: Authenticate): void {
  const guarded = { preHandler: authenticate };
  const reactions = { 200: z.array(reactionSummary), 201: z.array(reactionSummary) };

  app.post('/api/sessions/:id/like', { ...guarded, schema: { params: idParams, response: { 200: likeResponse } } }, async (request) =>
    interactions.like(authOf(request).userId, request.params.id, request.id),
  );
  app.delete('/api/sessions/:id/like', { ...guarded, schema: { params: idParams, response: { 200: likeResponse } } }, async (request) =>
    interactions.unlike(authOf(request).userId, request.params.id, request.id),
  );
  app.get(
    '/api/sessions/:id/likes',
    { ...guarded, schema: { params: idParams, querystring: likeListQuery, response: { 200: z.array(sessionLike) } } },
    async (request, reply) => {
      const page = await interactions.likes(authOf(request).userId, request.params.id, request.query.cursor, request.query.limit);
      if (page.next) reply.header(NEXT_CURSOR_HEADER, page.next);
      return page.likes;
    },
  );

  app.get('/api/sessions/:id/comments', { ...guarded, schema: { params: idParams, response: { 200: z.array(sessionComment) } } }, async (request) =>
    interactions.comments(authOf(request).userId, request.params.id),
  );
  app.post('/api/sessions/:id/comments', { ...guarded, schema: { params: idParams, body: commentBody, response: { 201: sessionComment } } }, async (request, reply) =>
    reply.status(201).send(await interactions.comment(authOf(request).userId, request.params.id, request.body.content, request.id)),
  );
  app.delete('/api/sessions/:id/comments/:commentId', { ...guarded, schema: { params: sessionCommentParams } }, async (request, reply) => {
    await interactions.deleteComment(authOf(request).userId, request.params.id, request.params.commentId, request.id);
    return reply.status(204).send();
  });

  app.get('/api/sessions/:id/reactions', { ...guarded, schema: { params: idParams, response: reactions } }, async (request) =>
    interactions.reactions(authOf(request).userId, request.params.id),
  );
  app.post('/api/sessions/:id/react', { ...guarded, schema: { params: idParams, body: reactionBody, response: reactions } }, async (request, reply) =>
    reply.status(201).send(await interactions.react(authOf(request).userId, request.params.id, request.body.emoji, request.id)),
  );
  app.delete('/api/sessions/:id/react', { ...guarded, schema: { params: idParams, body: reactionBody, response: reactions } }, async (request) =>
    interactions.unreact(authOf(request).userId, request.params.id, request.body.emoji, request.id),
  );
}
