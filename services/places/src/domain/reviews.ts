import type { CreateReviewBody, Review } from '@hoptrack/proto';
import { conflict, forbidden, notFound, type Outbox } from '@hoptrack/runtime';
import type { Db, PrismaClient } from '../db';
import { barsRepository } from '../repositories/bars.repository';
import type { Page } from '../repositories/page';
import { reviewsRepository, type ReviewFilter, type ReviewRow } from '../repositories/reviews.repository';

export interface ReviewsDeps {
  prisma: PrismaClient;
  /** A review written or deleted is announced in the same transaction (place.review.*.v1). */
  outbox: Outbox;
  /** Tells the relay that events were committed (publishes at once instead of at the next poll). */
  onEventsCommitted: () => void;
}

function reviewView(row: ReviewRow, viewerId: string): Review {
  return {
    id: row.id,
    barId: row.bar_id,
    userId: row.user_id,
    authorName: row.author_name,
    authorPicture: row.author_picture,
    rating: row.rating,
    reviewText: row.review_text,
    source: row.source,
    sourceUrl: row.source_url,
    reviewDate: row.review_date.toISOString(),
    isVerified: row.is_verified,
    helpfulCount: row.helpful_count,
    currentUserVote: row.current_user_vote,
    isOwn: row.user_id === viewerId,
  };
}

/** Bar reviews and their helpfulness votes. */
export class Reviews {
  constructor(private readonly deps: ReviewsDeps) {}

  /** Newest first. Unknown bar: 404. */
  async list(barId: string, viewerId: string, page: Page): Promise<Review[]> {
    await this.assertBarExists(this.deps.prisma, barId);
    return this.visible(this.deps.prisma, viewerId, page, { barId });
  }

  /** How many of a bar's reviews the viewer may see. */
  async count(barId: string, viewerId: string): Promise<number> {
    return reviewsRepository.countVisibleOfBar(this.deps.prisma, viewerId, barId);
  }

  /**
   * One review per user and bar (a second: 409, nothing replaced, nothing
   * published). The bar row is locked while its rating is recomputed, so two
   * reviews landing at once both count. Announced with place.review.created.v1.
   */
  async create(barId: string, userId: string, body: CreateReviewBody, requestId?: string): Promise<Review> {
    const created = await this.deps.prisma.$transaction(async (tx) => {
      await this.assertBarExists(tx, barId, { lock: true });
      const id = await reviewsRepository.insertUnlessReviewed(tx, barId, userId, body);
      if (!id) throw conflict('You have already reviewed this bar', 'rating');
      await barsRepository.refreshRating(tx, barId);
      const review = await this.one(tx, id, userId);
      // reviewDate is the row's insert time: when the review was written.
      await this.deps.outbox.enqueue(tx, 'place.review.created.v1', { reviewId: id, barId, userId, createdAt: review.reviewDate }, requestId);
      return review;
    });
    this.deps.onEventsCommitted();
    return created;
  }

  /**
   * Only the author deletes a review (others 403); the bar's rating follows.
   * Announced with place.review.deleted.v1. Two deletes at once queue on the
   * bar's lock, and the second finds no review (404): one event per review.
   */
  async delete(barId: string, reviewId: string, userId: string, requestId?: string): Promise<void> {
    await this.deps.prisma.$transaction(async (tx) => {
      await this.assertBarExists(tx, barId, { lock: true });
      const review = await this.one(tx, reviewId, userId, barId);
      if (review.userId !== userId) throw forbidden('You can only delete your own reviews');
      await reviewsRepository.deleteById(tx, reviewId);
      await barsRepository.refreshRating(tx, barId);
      await this.deps.outbox.enqueue(tx, 'place.review.deleted.v1', { reviewId, barId, userId }, requestId);
    });
    this.deps.onEventsCommitted();
  }

  /**
   * One vote per user and review (a second: 409), never on one's own review
   * (403). A 'helpful' vote bumps helpfulCount in the same transaction.
   */
  async vote(barId: string, reviewId: string, userId: string, isHelpful: boolean): Promise<Review> {
    return this.deps.prisma.$transaction(async (tx) => {
      const review = await this.one(tx, reviewId, userId, barId);
      if (review.userId === userId) throw forbidden('You cannot vote on your own review');
      if ((await reviewsRepository.addVote(tx, reviewId, userId, isHelpful)) === 0) throw conflict('You have already voted on this review', 'isHelpful');
      if (isHelpful) await reviewsRepository.incrementHelpfulCount(tx, reviewId);
      return this.one(tx, reviewId, userId);
    });
  }

  private async one(db: Db, reviewId: string, viewerId: string, barId?: string): Promise<Review> {
    const [review] = await this.visible(db, viewerId, { limit: 1, offset: 0 }, barId ? { reviewId, barId } : { reviewId });
    if (!review) throw notFound('Review not found');
    return review;
  }

  /** The visible reviews that meet the filter, newest first. */
  private async visible(db: Db, viewerId: string, page: Page, filter: ReviewFilter): Promise<Review[]> {
    const rows = await reviewsRepository.listVisible(db, viewerId, filter, page);
    return rows.map((row) => reviewView(row, viewerId));
  }

  /** Unknown bar: 404. With `lock`, the bar's row stays locked for the rest of the transaction. */
  private async assertBarExists(db: Db, barId: string, options: { lock?: boolean } = {}): Promise<void> {
    if (!(await barsRepository.exists(db, barId, options))) throw notFound('Bar not found');
  }
}
