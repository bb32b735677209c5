/** What the button needs of an infinite query. */
interface Pages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/**
 * The 'load more' of a paged list (feed, likers, conversations, older
 * messages): shown while the server has a next page, disabled and reading
 * 'Loading...' while it comes. `centered` puts it in a centred button row
 * under a list.
 */
export function LoadMoreButton({ pages, label, className = 'button button--secondary', centered = false }: { pages: Pages; label: string; className?: string; centered?: boolean }) {
  if (!pages.hasNextPage) return null;
  const button = (
    <button type="button" className={className} disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
      {pages.isFetchingNextPage ? 'Loading...' : label}
    </button>
  );
  return centered ? <div className="button-row button-row--center">{button}</div> : button;
}
