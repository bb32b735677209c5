import type { Review } from '@hoptrack/proto';
import { useState } from 'react';
import { barKeys, catalogueApi, REVIEW_WRITES_AFFECT } from '../../lib/catalogueApi';
import { shortDate } from '../../lib/format';
import { useToast } from '../../lib/toast';
import { useSocialAction } from '../../lib/useSocialAction';
import { Avatar } from '../Avatar';
import { ConfirmDialog } from '../ConfirmDialog';
import { StarRating } from './StarRating';

/**
 * One review: the author (avatar, name), stars, date and text; 'Helpful (N)'
 * and 'Not helpful' for the viewer's one vote (both disabled once cast, the
 * chosen one pressed; never on one's own review), and 'Delete' (asks first)
 * on one's own.
 */
export function ReviewCard({ barId, review }: { barId: string; review: Review }) {
  const date = shortDate(review.reviewDate);
  const imported = review.source !== 'hoptrack';
  return (
    <li className="review-card" aria-label={`Review by ${review.authorName}`}>
      <div className="review-card__head">
        <Avatar user={{ displayName: review.authorName, profilePicture: review.authorPicture }} size={36} />
        <div className="review-card__who">
          <span className="review-card__author">
            <span className="review-card__name">{review.authorName}</span>
            {review.isOwn && <span className="badge review-card__badge">You</span>}
          </span>
          <span className="review-card__meta">
            <StarRating value={review.rating} />
            {date && <time dateTime={review.reviewDate}>{date}</time>}
            {imported &&
              (review.sourceUrl ? (
                <a className="link" href={review.sourceUrl} target="_blank" rel="noreferrer">
                  via {review.source}
                </a>
              ) : (
                <span>via {review.source}</span>
              ))}
          </span>
        </div>
        {review.isOwn && <DeleteReview barId={barId} reviewId={review.id} />}
      </div>
      {review.reviewText && <p className="review-card__text">{review.reviewText}</p>}
      <ReviewVotes barId={barId} review={review} />
    </li>
  );
}

function ReviewVotes({ barId, review }: { barId: string; review: Review }) {
  const vote = useSocialAction({
    mutationFn: (isHelpful: boolean) => catalogueApi.voteReview(barId, review.id, isHelpful),
    affects: barKeys(barId),
    failure: { fallback: 'Failed to record your vote. Please try again.' },
  });
  const voted = review.currentUserVote !== null;
  const closed = review.isOwn || voted;
  const why = review.isOwn ? 'You cannot vote on your own review' : voted ? 'You have already voted on this review' : undefined;
  const className = `button button--ghost button--small review-vote${closed ? ' button--static' : ''}`;
  return (
    <div className="review-card__votes" role="group" aria-label="Was this review helpful?">
      <button
        type="button"
        className={className}
        aria-pressed={review.currentUserVote === true}
        title={why}
        disabled={closed || vote.isPending}
        onClick={() => vote.mutate(true)}
      >
        Helpful ({review.helpfulCount})
      </button>
      <button
        type="button"
        className={className}
        aria-pressed={review.currentUserVote === false}
        title={why}
        disabled={closed || vote.isPending}
        onClick={() => vote.mutate(false)}
      >
        Not helpful
      </button>
    </div>
  );
}

function DeleteReview({ barId, reviewId }: { barId: string; reviewId: string }) {
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const remove = useSocialAction<void, unknown>({
    mutationFn: () => catalogueApi.deleteReview(barId, reviewId),
    affects: REVIEW_WRITES_AFFECT,
    failure: { fallback: 'Failed to delete your review. Please try again.' },
    onSuccess: () => {
      setOpen(false);
      toast({ title: 'Review deleted', description: 'Your review has been removed.' });
    },
  });
  return (
    <>
      <button type="button" className="button button--ghost button--small button--danger-text" onClick={() => setOpen(true)}>
        Delete
      </button>
      {open && (
        <ConfirmDialog
          title="Delete review?"
          description="Your review and its rating will be removed. You can write a new one afterwards."
          confirmLabel="Delete"
          pending={remove.isPending}
          onConfirm={() => remove.mutate()}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
