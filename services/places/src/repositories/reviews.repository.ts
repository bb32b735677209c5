import type { CreateReviewBody } from '@hoptrack/proto';
import { audienceSql, executeSql, identifier, joinSql, queryRows, sql, uuid, type Sql } from '@hoptrack/runtime';
import type { Bar, BarReview, Db, ReviewHelpfulness } from '../db';
import type { Page } from './page';

export interface ReviewRow {
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

/** Which reviews: one (optionally only if it is of the bar), or a bar's. */
export type ReviewFilter = { reviewId: string; barId?: string } | { barId: string };

export type WrittenReview = BarReview & { bar: Pick<Bar, 'id' | 'name' | 'city' | 'country'> };
export type GivenVote = ReviewHelpfulness & { review: { id: string; bar: Pick<Bar, 'id' | 'name'> } };

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

/** The filter as conditions on `r`, the review. */
function conditions(filter: ReviewFilter): [Sql, ...Sql[]] {
  if (!('reviewId' in filter)) return [sql`r.bar_id = ${uuid(filter.barId)}`];
  const where: [Sql, ...Sql[]] = [sql`r.id = ${uuid(filter.reviewId)}`];
  if (filter.barId) where.push(sql`r.bar_id = ${uuid(filter.barId)}`);
  return where;
}

/** All reads and writes of bar reviews and their helpfulness votes. */
export const reviewsRepository = {
  /** The reviews the viewer may see that meet the filter, newest first. */
  listVisible(db: Db, viewerId: string, filter: ReviewFilter, page: Page): Promise<ReviewRow[]> {
    return queryRows<ReviewRow[]>(
      db,
      sql`${visibleReviews(viewerId)} AND ${joinSql(conditions(filter), ' AND ')} ORDER BY r.review_date DESC, r.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
    );
  },

  /** How many of a bar's reviews the viewer may see. */
  async countVisibleOfBar(db: Db, viewerId: string, barId: string): Promise<number> {
    const [row] = await queryRows<Array<{ n: bigint }>>(
      db,
      sql`SELECT count(*) AS n FROM (${visibleReviews(viewerId)} AND r.bar_id = ${uuid(barId)}) visible`,
    );
    return Number(row?.n ?? 0);
  },

  /** Writes `userId`'s review of the bar; its id, or undefined when they had reviewed it already (nothing written). */
  async insertUnlessReviewed(db: Db, barId: string, userId: string, review: CreateReviewBody): Promise<string | undefined> {
    const inserted = await queryRows<Array<{ id: string }>>(
      db,
      sql`INSERT INTO bar_reviews (id, bar_id, user_id, rating, review_text, source, is_verified)
         VALUES (gen_random_uuid(), ${barId}::uuid, ${userId}::uuid, ${review.rating}, ${review.reviewText}, 'hoptrack', true)
         ON CONFLICT (bar_id, user_id) DO NOTHING RETURNING id`,
    );
    return inserted[0]?.id;
  },

  /** Deletes the review, and with it (ON DELETE CASCADE) the votes on it. */
  deleteById(db: Db, id: string): Promise<BarReview> {
    return db.barReview.delete({ where: { id } });
  },

  /** Records `userId`'s vote on the review unless they voted on it already; the votes added (0 or 1). */
  async addVote(db: Db, reviewId: string, userId: string, isHelpful: boolean): Promise<number> {
    const { count } = await db.reviewHelpfulness.createMany({ data: [{ reviewId, userId, isHelpful }], skipDuplicates: true });
    return count;
  },

  incrementHelpfulCount(db: Db, reviewId: string): Promise<BarReview> {
    return db.barReview.update({ where: { id: reviewId }, data: { helpfulCount: { increment: 1 } } });
  },

  /** Deletes `userId`'s votes: each 'helpful' one comes off the review it counted on. */
  async deleteVotesBy(db: Db, userId: string): Promise<void> {
    await executeSql(
      db,
      sql`WITH gone AS (DELETE FROM review_helpfulness WHERE user_id = ${userId}::uuid RETURNING review_id, is_helpful)
     UPDATE bar_reviews r SET helpful_count = GREATEST(r.helpful_count - g.n, 0)
       FROM (SELECT review_id, count(*)::int AS n FROM gone WHERE is_helpful GROUP BY review_id) g
      WHERE r.id = g.review_id`,
    );
  },

  /** Deletes `userId`'s reviews, and with them (ON DELETE CASCADE) the votes others gave them. */
  async deleteWrittenBy(db: Db, userId: string): Promise<void> {
    await executeSql(db, sql`DELETE FROM bar_reviews WHERE user_id = ${userId}::uuid`);
  },

  /** `userId`'s reviews, oldest first, each with its bar. */
  listWrittenBy(db: Db, userId: string): Promise<WrittenReview[]> {
    return db.barReview.findMany({
      where: { userId },
      orderBy: [{ reviewDate: 'asc' }, { id: 'asc' }],
      include: { bar: { select: { id: true, name: true, city: true, country: true } } },
    });
  },

  /** `userId`'s votes on reviews, oldest first, each with the review's bar. */
  listVotesBy(db: Db, userId: string): Promise<GivenVote[]> {
    return db.reviewHelpfulness.findMany({
      where: { userId },
      orderBy: [{ createdAt: 'asc' }, { reviewId: 'asc' }],
      include: { review: { select: { id: true, bar: { select: { id: true, name: true } } } } },
    });
  },
};
