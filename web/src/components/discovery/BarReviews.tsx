import { useInfiniteQuery } from '@tanstack/react-query';
import type { BarDetail, Review } from '@hoptrack/proto';
import { BAR_DETAIL_REVIEWS } from '@hoptrack/proto/constants';
import { useId, useState } from 'react';
import { barReviewsKey, catalogueApi, reviewCountLabel, REVIEWS_PAGE } from '../../lib/catalogueApi';
import { useErrorToast } from '../../lib/useErrorToast';
import { ReviewCard } from './ReviewCard';
import { ReviewForm } from './ReviewForm';
import { StarRating } from './StarRating';

/** The detail's newest reviews, then the pages after them, each review once (a write may shift the pages). */
function mergeReviews(first: readonly Review[], pages: readonly Review[][] | undefined): Review[] {
  const seen = new Set<string>();
  const merged: Review[] = [];
  for (const review of [...first, ...(pages?.flat() ?? [])]) {
    if (seen.has(review.id)) continue;
    seen.add(review.id);
    merged.push(review);
  }
  return merged;
}

/**
 * A bar's reviews: the average and count, the newest reviews from the
 * detail, 'Show more reviews' paging the rest from GET
 * /api/bars/{id}/reviews (after the detail's BAR_DETAIL_REVIEWS), and
 * 'Write a review' while the viewer has none among them.
 */
export function BarReviews({ bar }: { bar: BarDetail }) {
  const [paging, setPaging] = useState(false);
  const [writing, setWriting] = useState(false);
  const headingId = useId();
  const more = useInfiniteQuery({
    queryKey: barReviewsKey(bar.id),
    queryFn: ({ pageParam }) => catalogueApi.reviews(bar.id, pageParam, REVIEWS_PAGE),
    initialPageParam: BAR_DETAIL_REVIEWS,
    getNextPageParam: (last, _pages, offset) => (last.length < REVIEWS_PAGE ? undefined : offset + REVIEWS_PAGE),
    enabled: paging,
  });
  useErrorToast(more.error, () => ({ title: 'Error', description: 'Could not load more reviews.' }));

  const reviews = mergeReviews(bar.reviews, more.data?.pages);
  const hasOwn = reviews.some((review) => review.isOwn);
  // The form closes once the viewer's review is in (a later delete shows 'Write a review' again, not the old form).
  if (hasOwn && writing) setWriting(false);
  const moreLeft = reviews.length < bar.reviewCount && (!more.data || more.hasNextPage);

  const showMore = () => {
    if (!paging) setPaging(true);
    else if (!more.data) void more.refetch();
    else void more.fetchNextPage();
  };

  return (
    <section className="bar-reviews" aria-labelledby={headingId}>
      <h3 id={headingId} className="bar-detail__heading">
        Reviews
      </h3>
      {bar.reviewCount > 0 || bar.rating !== null ? (
        <p className="review-summary">
          {bar.rating !== null && (
            <>
              <span className="review-summary__average">{bar.rating.toFixed(1)}</span>
              <StarRating value={bar.rating} />
            </>
          )}
          <span className="review-summary__count">{reviewCountLabel(bar.reviewCount)}</span>
        </p>
      ) : (
        <p className="discovery-note">No reviews yet. Be the first to review {bar.name}.</p>
      )}
      {reviews.length > 0 && (
        <ul className="review-list" aria-label={`Reviews of ${bar.name}`}>
          {reviews.map((review) => (
            <ReviewCard key={review.id} barId={bar.id} review={review} />
          ))}
        </ul>
      )}
      {moreLeft && (
        <button type="button" className="button button--secondary button--small review-more" disabled={more.isFetching} onClick={showMore}>
          {more.isFetching ? 'Loading...' : 'Show more reviews'}
        </button>
      )}
      {!hasOwn &&
        (writing ? (
          <ReviewForm barId={bar.id} barName={bar.name} onCancel={() => setWriting(false)} />
        ) : (
          <button type="button" className="button button--primary button--small review-write" onClick={() => setWriting(true)}>
            Write a review
          </button>
        ))}
    </section>
  );
}
