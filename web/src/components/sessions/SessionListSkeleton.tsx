/** Rows shown while a session list loads: as many as the feed's skeleton (spec section 9: 3). */
const ROWS = 3;

export function SessionListSkeleton({ label }: { label: string }) {
  return (
    <div className="activity-list" role="status" aria-label={label}>
      {Array.from({ length: ROWS }, (_, index) => (
        <div key={index} className="activity" aria-hidden="true">
          <span className="skeleton skeleton--line skeleton--short" />
          <span className="skeleton skeleton--line" />
        </div>
      ))}
    </div>
  );
}
