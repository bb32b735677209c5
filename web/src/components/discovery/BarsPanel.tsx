import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { SearchInput } from '../SearchInput';
import type { Bar } from '@hoptrack/proto';
import { CATALOGUE_SEARCH_MAX } from '@hoptrack/proto/constants';
import { useState } from 'react';
import { barListQuery, type BarListSource } from '../../lib/catalogueApi';
import type { Coordinates } from '../../lib/geolocation';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { SEARCH_DEBOUNCE_MS } from '../../lib/useUserSearch';
import { EmptyState } from '../EmptyState';
import { CompassIcon } from '../icons';
import { ListError } from '../social/UserList';
import { BarDetailModal } from './BarDetailModal';
import { BarList, BarListSkeleton } from './BarList';
import { useLocate } from './useLocate';

/**
 * The 'Bars & Restaurants' tab: a search (any non-empty trimmed text, spec
 * section 5) wins over 'Use my location' (nearest first, with distances),
 * which wins over the first page of GET /api/bars. A bar opens its detail.
 */
export function BarsPanel() {
  const [text, setText] = useState('');
  const q = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const [here, setHere] = useState<Coordinates | null>(null);
  const [opened, setOpened] = useState<Bar | null>(null);
  const { locate, locating } = useLocate(setHere);

  const source: BarListSource = q ? { kind: 'search', q } : here ? { kind: 'nearby', at: here } : { kind: 'all' };
  const bars = useQuery({ ...barListQuery(source), placeholderData: keepPreviousData });
  const waiting = text.trim() !== q;

  const label = source.kind === 'search' ? 'Bar search results' : source.kind === 'nearby' ? 'Bars near you' : 'Bars';

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
        <button type="button" className="button button--secondary" disabled={locating} onClick={() => void locate()}>
          <CompassIcon width={18} height={18} aria-hidden="true" />
          {locating ? 'Locating...' : 'Use my location'}
        </button>
      </div>
      {here && source.kind === 'nearby' && (
        <p className="discovery-note">
          Showing the bars nearest to you.{' '}
          <button type="button" className="button button--ghost button--small" onClick={() => setHere(null)}>
            Show all bars
          </button>
        </p>
      )}
      {bars.isPending ? (
        <BarListSkeleton />
      ) : bars.isError ? (
        <ListError text="Could not load bars." onRetry={() => void bars.refetch()} />
      ) : bars.data.length === 0 && !bars.isPlaceholderData ? (
        <EmptyState
          title={source.kind === 'search' ? 'No bars found' : 'No bars yet'}
          text={source.kind === 'search' ? `Nothing matches "${q}".` : source.kind === 'nearby' ? 'There are no bars near you yet.' : 'The catalogue has no bars yet.'}
          Icon={CompassIcon}
        />
      ) : (
        <BarList label={label} bars={bars.data} onOpen={setOpened} stale={bars.isPlaceholderData || waiting} />
      )}
      {opened && <BarDetailModal bar={opened} onClose={() => setOpened(null)} />}
    </div>
  );
}
