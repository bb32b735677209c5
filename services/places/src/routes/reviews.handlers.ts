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
    // Both answer their contract's 201; a delete answers nothing (204).
    createReview: async (request) => reviews.create(request.params.id, request.auth.userId, request.body, request.id),
    deleteReview: async (request) => reviews.delete(request.params.id, request.params.reviewId, request.auth.userId, request.id),
    voteHelpful: async (request) => reviews.vote(request.params.id, request.params.reviewId, request.auth.userId, request.body.isHelpful),
  };
}
