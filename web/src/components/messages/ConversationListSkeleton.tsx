/** Conversations shown while the list loads (spec section 2: 5). */
export const CONVERSATION_SKELETON_COUNT = 5;

export function ConversationListSkeleton({ label = 'Loading conversations' }: { label?: string }) {
  return (
    <div className="conversation-list" role="status" aria-label={label}>
      {Array.from({ length: CONVERSATION_SKELETON_COUNT }, (_, index) => (
        <div key={index} className="conversation-item conversation-item--skeleton" aria-hidden="true" data-testid="conversation-skeleton">
          <span className="skeleton skeleton--avatar" />
          <span className="conversation-item__text">
            <span className="skeleton skeleton--line" />
            <span className="skeleton skeleton--line skeleton--short" />
          </span>
        </div>
      ))}
    </div>
  );
}
