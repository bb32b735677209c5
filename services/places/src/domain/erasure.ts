import type { Prisma } from '../db';

type Tx = Prisma.TransactionClient;

/**
 * Places' part of an account deletion (issue 24): the person's reviews (with
 * the votes others gave them: the cascade) and their votes on others'
 * reviews. The counts they were part of follow in the same transaction: a
 * 'helpful' vote of theirs comes off its review's helpfulCount, and the
 * rating of every bar they reviewed is recomputed from the reviews left
 * (as a deleted review's is). Bars are locked in id order, as a review's
 * create or delete locks its bar, so a review landing meanwhile still counts.
 */
export async function erasePlacesRows(tx: Tx, userId: string): Promise<void> {
  const bars = await tx.$queryRawUnsafe<Array<{ id: string }>>(
    `SELECT b.id::text AS id FROM bars b WHERE b.id IN (SELECT bar_id FROM bar_reviews WHERE user_id = $1::uuid) ORDER BY b.id FOR UPDATE OF b`,
    userId,
  );
  // Their votes: each 'helpful' one comes off the review it counted on.
  await tx.$executeRawUnsafe(
    `WITH gone AS (DELETE FROM review_helpfulness WHERE user_id = $1::uuid RETURNING review_id, is_helpful)
     UPDATE bar_reviews r SET helpful_count = GREATEST(r.helpful_count - g.n, 0)
       FROM (SELECT review_id, count(*)::int AS n FROM gone WHERE is_helpful GROUP BY review_id) g
      WHERE r.id = g.review_id`,
    userId,
  );
  // Their reviews, and with them (ON DELETE CASCADE) the votes others gave them.
  await tx.$executeRawUnsafe('DELETE FROM bar_reviews WHERE user_id = $1::uuid', userId);
  for (const { id } of bars) {
    await tx.$executeRawUnsafe(
      `UPDATE bars SET rating = (SELECT round(avg(rating)::numeric, 1)::float8 FROM bar_reviews WHERE bar_id = $1::uuid) WHERE id = $1::uuid`,
      id,
    );
  }
}
