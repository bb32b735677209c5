import type { ExportPart } from '@hoptrack/proto';
import type { PrismaClient } from '../db';
import { reviewsRepository } from '../repositories/reviews.repository';

/**
 * Places' part of a data export (issue 24): the bar reviews the person wrote
 * (the bar by id and name, rating, text, date, how many found it helpful)
 * and the helpfulness votes they gave (which review, of which bar, helpful
 * or not, when). Who voted on their reviews stays with the voters.
 */
export async function exportPlaces(db: PrismaClient, userId: string): Promise<Omit<ExportPart, 'service'>> {
  const [reviews, votes] = await Promise.all([reviewsRepository.listWrittenBy(db, userId), reviewsRepository.listVotesBy(db, userId)]);
  return {
    data: {
      reviews: reviews.map((r) => ({
        id: r.id,
        bar: { id: r.bar.id, name: r.bar.name, city: r.bar.city, country: r.bar.country },
        rating: r.rating,
        reviewText: r.reviewText,
        reviewDate: r.reviewDate.toISOString(),
        helpfulCount: r.helpfulCount,
      })),
      helpfulnessVotes: votes.map((v) => ({
        reviewId: v.reviewId,
        bar: { id: v.review.bar.id, name: v.review.bar.name },
        isHelpful: v.isHelpful,
        votedAt: v.createdAt.toISOString(),
      })),
    },
    files: [],
  };
}
