import { commentBody, idParams, likeResponse, reactionBody, reactionSummary, sessionComment, sessionCommentParams } from '@hoptrack/proto';
import { authOf, type Authenticate, type ServiceApp } from '@hoptrack/runtime';
import { z } from 'zod';
import type { Interactions } from '../domain/interactions';

/** Likes, comments and reactions on a session (spec 7, 'Sessions'). */
export function interactionsRoutes(app: ServiceApp, interactions: Interactions, authenticate: Authenticate): void {
  const guarded = { preHandler: authenticate };
  const reactions = { 200: z.array(reactionSummary), 201: z.array(reactionSummary) };

  app.post('/api/sessions/:id/like', { ...guarded, schema: { params: idParams, response: { 200: likeResponse } } }, async (request) =>
    interactions.like(authOf(request).userId, request.params.id),
  );
  app.delete('/api/sessions/:id/like', { ...guarded, schema: { params: idParams, response: { 200: likeResponse } } }, async (request) =>
    interactions.unlike(authOf(request).userId, request.params.id),
  );

  app.get('/api/sessions/:id/comments', { ...guarded, schema: { params: idParams, response: { 200: z.array(sessionComment) } } }, async (request) =>
    interactions.comments(authOf(request).userId, request.params.id),
  );
  app.post('/api/sessions/:id/comments', { ...guarded, schema: { params: idParams, body: commentBody, response: { 201: sessionComment } } }, async (request, reply) =>
    reply.status(201).send(await interactions.comment(authOf(request).userId, request.params.id, request.body.content)),
  );
  app.delete('/api/sessions/:id/comments/:commentId', { ...guarded, schema: { params: sessionCommentParams } }, async (request, reply) => {
    await interactions.deleteComment(authOf(request).userId, request.params.id, request.params.commentId);
    return reply.status(204).send();
  });

  app.get('/api/sessions/:id/reactions', { ...guarded, schema: { params: idParams, response: reactions } }, async (request) =>
    interactions.reactions(authOf(request).userId, request.params.id),
  );
  app.post('/api/sessions/:id/react', { ...guarded, schema: { params: idParams, body: reactionBody, response: reactions } }, async (request, reply) =>
    reply.status(201).send(await interactions.react(authOf(request).userId, request.params.id, request.body.emoji)),
  );
  app.delete('/api/sessions/:id/react', { ...guarded, schema: { params: idParams, body: reactionBody, response: reactions } }, async (request) =>
    interactions.unreact(authOf(request).userId, request.params.id, request.body.emoji),
  );
}
