import type { placesApi } from '@hoptrack/proto';
import type { Handlers } from '@hoptrack/runtime';
import type { Reviews } from '../domain/reviews';

/**
 * Bar reviews. The spec names the tables but no calls; these sit under the
 * bar they review (docs/decisions.md, 'Bar reviews').
 */
export function reviewsHandlers(reviews: Reviews): Pick<Handlers<typeof placesApi>, 'reviews' | 'createReview' | 'deleteReview' | 'voteHelpful'> {
  return {
    reviews: async (request) => reviews.list(request.params.id, request.auth.userId, request.query),
    createReview: async (request, reply) =>
      reply.status(201).send(await reviews.create(request.params.id, request.auth.userId, request.body, request.id)),
    deleteReview: async (request, reply) => {
      await reviews.delete(request.params.id, request.params.reviewId, request.auth.userId, request.id);
      return reply.status(204).send();
    },
    voteHelpful: async (request, reply) =>
      reply.status(201).send(await reviews.vote(request.params.id, request.params.reviewId, request.auth.userId, request.body.isHelpful)),
  };
}
