import type { CreateReviewBody, Review } from '@hoptrack/proto';
import { audienceSql, conflict, forbidden, identifier, joinSql, notFound, queryRows, sql, uuid, type Outbox, type Sql } from '@hoptrack/runtime';
import type { Db, PrismaClient } from '../db';

export interface ReviewsDeps {
  prisma: PrismaClient;
  /** A review written or deleted is announced in the same transaction (place.review.*.v1). */
  outbox: Outbox;
  /** Tells the relay that events were committed (publishes at once instead of at the next poll). */
  onEventsCommitted: () => void;
}

interface Page {
  limit: number;
  offset: number;
}

interface ReviewRow {
  id: string;
  bar_id: string;
  user_id: string | null;
  author_name: string;
  author_picture: string | null;
  rating: number;
  review_text: string | null;
  source: string;
  source_url: string | null;
  review_date: Date;
  is_verified: boolean;
  helpful_count: number;
  current_user_vote: boolean | null;
}

/**
 * Reviews as the viewer may see them. The author's name and picture
 * come from the audience module's people table, so a rename shows on old reviews; an
 * imported review keeps its stored author name. Someone the viewer blocked,
 * or who blocked the viewer, is left out, as everywhere else. Ends in its
 * WHERE, for the caller to add `AND …` conditions.
 */
function visibleReviews(viewerId: string): Sql {
  const viewer = uuid(viewerId);
  return sql`
  SELECT r.id, r.bar_id, r.user_id,
         COALESCE(NULLIF(u.display_name, ''), u.username, r.author_name, 'Hoptrack user') AS author_name,
         u.profile_picture AS author_picture,
         r.rating, r.review_text, r.source, r.source_url, r.review_date, r.is_verified, r.helpful_count,
         v.is_helpful AS current_user_vote
  FROM bar_reviews r
  LEFT JOIN users u ON u.id = r.user_id
  LEFT JOIN review_helpfulness v ON v.review_id = r.id AND v.user_id = ${viewer}
  WHERE NOT ${audienceSql.blockedBetween(viewer, identifier('r.user_id'))}`;
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
    return this.visible(this.deps.prisma, viewerId, page, [sql`r.bar_id = ${uuid(barId)}`]);
  }

  /** How many of a bar's reviews the viewer may see. */
  async count(barId: string, viewerId: string): Promise<number> {
    const [row] = await queryRows<Array<{ n: bigint }>>(
      this.deps.prisma,
      sql`SELECT count(*) AS n FROM (${visibleReviews(viewerId)} AND r.bar_id = ${uuid(barId)}) visible`,
    );
    return Number(row?.n ?? 0);
  }

  /**
   * One review per user and bar (a second: 409, nothing replaced, nothing
   * published). The bar row is locked while its rating is recomputed, so two
   * reviews landing at once both count. Announced with place.review.created.v1.
   */
  async create(barId: string, userId: string, body: CreateReviewBody, requestId?: string): Promise<Review> {
    const created = await this.deps.prisma.$transaction(async (tx) => {
      await this.assertBarExists(tx, barId, { lock: true });
      const inserted = await tx.$queryRawUnsafe<Array<{ id: string }>>(
        `INSERT INTO bar_reviews (id, bar_id, user_id, rating, review_text, source, is_verified)
         VALUES (gen_random_uuid(), $1::uuid, $2::uuid, $3, $4, 'hoptrack', true)
         ON CONFLICT (bar_id, user_id) DO NOTHING RETURNING id`,
        barId,
        userId,
        body.rating,
        body.reviewText,
      );
      const id = inserted[0]?.id;
      if (!id) throw conflict('You have already reviewed this bar', 'rating');
      await this.refreshRating(tx, barId);
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
      await tx.barReview.delete({ where: { id: reviewId } });
      await this.refreshRating(tx, barId);
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
      const { count } = await tx.reviewHelpfulness.createMany({ data: [{ reviewId, userId, isHelpful }], skipDuplicates: true });
      if (count === 0) throw conflict('You have already voted on this review', 'isHelpful');
      if (isHelpful) await tx.barReview.update({ where: { id: reviewId }, data: { helpfulCount: { increment: 1 } } });
      return this.one(tx, reviewId, userId);
    });
  }

  private async one(db: Db, reviewId: string, viewerId: string, barId?: string): Promise<Review> {
    const where: [Sql, ...Sql[]] = [sql`r.id = ${uuid(reviewId)}`];
    if (barId) where.push(sql`r.bar_id = ${uuid(barId)}`);
    const [review] = await this.visible(db, viewerId, { limit: 1, offset: 0 }, where);
    if (!review) throw notFound('Review not found');
    return review;
  }

  /** The visible reviews that meet every condition of `where`, newest first. */
  private async visible(db: Db, viewerId: string, page: Page, where: readonly [Sql, ...Sql[]]): Promise<Review[]> {
    const rows = await queryRows<ReviewRow[]>(
      db,
      sql`${visibleReviews(viewerId)} AND ${joinSql(where, ' AND ')} ORDER BY r.review_date DESC, r.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
    );
    return rows.map((row) => reviewView(row, viewerId));
  }

  private async assertBarExists(db: Db, barId: string, options: { lock?: boolean } = {}): Promise<void> {
    const rows = await db.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM bars WHERE id = $1::uuid${options.lock ? ' FOR UPDATE' : ''}`, barId);
    if (rows.length === 0) throw notFound('Bar not found');
  }

  /** A bar's rating is the mean of its reviews to one decimal; none left: no rating. */
  private async refreshRating(db: Db, barId: string): Promise<void> {
    await db.$executeRawUnsafe(
      `UPDATE bars SET rating = (SELECT round(avg(rating)::numeric, 1)::float8 FROM bar_reviews WHERE bar_id = $1::uuid) WHERE id = $1::uuid`,
      barId,
    );
  }
}
