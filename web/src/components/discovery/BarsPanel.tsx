import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { SearchInput } from '../SearchInput';
import { CATALOGUE_SEARCH_MAX } from '@hoptrack/proto/constants';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { barListQuery, type BarListSource } from '../../lib/catalogueApi';
import { useKnownPosition } from '../../lib/knownPosition';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { SEARCH_DEBOUNCE_MS } from '../../lib/useUserSearch';
import { EmptyState } from '../EmptyState';
import { CompassIcon } from '../icons';
import { ListError } from '../social/UserList';
import { BarDetailModal, type OpenedFromList } from './BarDetailModal';
import { BarList, BarListSkeleton } from './BarList';
import { useLocate } from './useLocate';

/**
 * The 'Bars & Restaurants' tab: a search (any non-empty trimmed text, spec
 * section 5; nearest first once the position is known), else the bars near
 * the position, nearest first with distances. Without a position it says so
 * and offers 'Use my location' (issue 40: it listed the catalogue's first
 * page, A to Z across the world, under "near you"); a position the browser
 * already allowed is taken at once. A bar opens at its own address,
 * /bars/{id} (the dialog over this list), so back, forward and a shared link work.
 */
export function BarsPanel() {
  const [text, setText] = useState('');
  const q = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const { at: here, locating: looking } = useKnownPosition();
  const { locate, locating } = useLocate();
  const { barId } = useParams();
  const navigate = useNavigate();

  const source: BarListSource | null = q ? { kind: 'search', q, near: here } : here ? { kind: 'nearby', at: here } : null;
  const waiting = text.trim() !== q;

  const locateButton = (
    <button type="button" className="button button--secondary" disabled={locating} onClick={() => void locate()}>
      <CompassIcon width={18} height={18} aria-hidden="true" />
      {locating ? 'Locating...' : 'Use my location'}
    </button>
  );
  // No position and nothing searched: the panel says so, and its button is the one to press.
  const askingForPosition = source === null && !looking;

  let body;
  if (source) body = <BarResults source={source} stale={waiting} />;
  else if (looking) body = <BarListSkeleton />;
  else {
    body = (
      <EmptyState
        title="Find bars near you"
        text="Discovery does not know where you are yet. Share your location to see the bars and restaurants nearest to you, or search by name or city above."
        Icon={CompassIcon}
      >
        {locateButton}
      </EmptyState>
    );
  }

  const close = (opened: OpenedFromList) => {
    // Opened from this list: back to it, as the browser's back button would; opened from a link: to Discovery.
    if (opened.fromList) void navigate(-1);
    else void navigate('/discovery', { replace: true });
  };

  return (
    <div className="discovery-panel">
      <div className="discovery-toolbar">
        <SearchInput
          className="discovery-toolbar__search"
          label="Search bars"
          placeholder="Search bars and restaurants"
          maxLength={CATALOGUE_SEARCH_MAX}
          value={text}
          onChange={setText}
        />
        {!askingForPosition && locateButton}
      </div>
      {source?.kind === 'nearby' && <p className="discovery-note">Showing the bars nearest to you.</p>}
      {body}
      {barId && <BarDetailModal barId={barId} here={here} onClose={close} />}
    </div>
  );
}

/** The bars of a search or near a position; `stale` while the typed text waits for its search. */
function BarResults({ source, stale }: { source: BarListSource; stale: boolean }) {
  const bars = useQuery({ ...barListQuery(source), placeholderData: keepPreviousData });
  if (bars.isPending) return <BarListSkeleton />;
  if (bars.isError) return <ListError text="Could not load bars." onRetry={() => void bars.refetch()} />;
  const search = source.kind === 'search';
  if (bars.data.length === 0 && !bars.isPlaceholderData) {
    return (
      <EmptyState
        title={search ? 'No bars found' : 'No bars yet'}
        text={search ? `Nothing matches "${source.q}".` : 'There are no bars near you yet.'}
        Icon={CompassIcon}
      />
    );
  }
  return <BarList label={search ? 'Bar search results' : 'Bars near you'} bars={bars.data} stale={bars.isPlaceholderData || stale} />;
}
