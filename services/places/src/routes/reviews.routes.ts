import { createReviewBody, helpfulVoteBody, idParams, review, reviewParams, reviewsQuery } from '@hoptrack/proto';
import { authOf, type Authenticate, type ServiceApp } from '@hoptrack/runtime';
import { z } from 'zod';
import type { Reviews } from '../domain/reviews';

/**
 * Bar reviews. The spec names the tables but no calls; these sit under the
 * bar they review (docs/decisions.md, 'Bar reviews').
 */
export function reviewsRoutes(app: ServiceApp, reviews: Reviews, authenticate: Authenticate): void {
  const guarded = { preHandler: authenticate };

  app.get('/api/bars/:id/reviews', { ...guarded, schema: { params: idParams, querystring: reviewsQuery, response: { 200: z.array(review) } } }, async (request) =>
    reviews.list(request.params.id, authOf(request).userId, request.query),
  );
  app.post('/api/bars/:id/reviews', { ...guarded, schema: { params: idParams, body: createReviewBody, response: { 201: review } } }, async (request, reply) =>
    reply.status(201).send(await reviews.create(request.params.id, authOf(request).userId, request.body, request.id)),
  );
  app.delete('/api/bars/:id/reviews/:reviewId', { ...guarded, schema: { params: reviewParams } }, async (request, reply) => {
    await reviews.delete(request.params.id, request.params.reviewId, authOf(request).userId, request.id);
    return reply.status(204).send();
  });
  app.post(
    '/api/bars/:id/reviews/:reviewId/helpful',
    { ...guarded, schema: { params: reviewParams, body: helpfulVoteBody, response: { 201: review } } },
    async (request, reply) =>
      reply.status(201).send(await reviews.vote(request.params.id, request.params.reviewId, authOf(request).userId, request.body.isHelpful)),
  );
}
