/** A list of the account screen that could not be read: says so, with a retry. */
export function LoadError({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <div className="account-exports__error" role="alert">
      <p>Could not load {what}.</p>
      <button type="button" className="button button--secondary button--small" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
