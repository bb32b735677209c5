import type { Prisma } from '../db';
import { barsRepository } from '../repositories/bars.repository';
import { reviewsRepository } from '../repositories/reviews.repository';

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
  const bars = await barsRepository.lockReviewedBy(tx, userId);
  // Their votes: each 'helpful' one comes off the review it counted on.
  await reviewsRepository.deleteVotesBy(tx, userId);
  // Their reviews, and with them (ON DELETE CASCADE) the votes others gave them.
  await reviewsRepository.deleteWrittenBy(tx, userId);
  for (const id of bars) await barsRepository.refreshRating(tx, id);
}
