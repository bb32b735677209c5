/** Cards shown while the feed loads (spec section 9: 3). */
export const FEED_SKELETON_COUNT = 3;

export function FeedSkeleton({ count = FEED_SKELETON_COUNT }: { count?: number }) {
  return (
    <div className="session-list" role="status" aria-label="Loading activities">
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className="card session-card session-card--skeleton" aria-hidden="true">
          <div className="session-card__header">
            <span className="skeleton skeleton--avatar" />
            <span className="session-card__who">
              <span className="skeleton skeleton--line skeleton--short" />
              <span className="skeleton skeleton--line skeleton--tiny" />
            </span>
          </div>
          <span className="skeleton skeleton--line skeleton--title" />
          <span className="skeleton skeleton--line" />
          <span className="skeleton skeleton--block" />
        </div>
      ))}
    </div>
  );
}
