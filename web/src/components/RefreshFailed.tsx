/**
 * What was loaded stays on screen when refreshing it fails (issue 40): this
 * small note says so above it, with a way to try again, instead of an error
 * panel replacing it. Queries answer `isRefetchError` for exactly that case
 * (data held, its refresh failed); `isLoadingError` is the one with nothing to show.
 */
export function RefreshFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <p className="refresh-failed" role="status">
      Couldn’t refresh — showing what was loaded.{' '}
      <button type="button" className="link-button" onClick={onRetry}>
        Try again
      </button>
    </p>
  );
}
