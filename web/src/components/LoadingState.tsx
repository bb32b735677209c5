/** Shown while the signed-in state is being confirmed (a token exists, /api/me is on its way). */
export function LoadingState({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="loading-state" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
