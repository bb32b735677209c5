import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { SearchInput } from '../SearchInput';
import { CATALOGUE_SEARCH_MAX } from '@hoptrack/proto/constants';
import { useEffect, useId, useState } from 'react';
import { beerListQuery } from '../../lib/catalogueApi';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { SEARCH_DEBOUNCE_MS } from '../../lib/useUserSearch';
import { EmptyState } from '../EmptyState';
import { ListError } from '../social/UserList';
import { BeerList } from './BeerList';

/**
 * The 'Beers' tab: GET /api/beers, or GET /api/beers/search?q= for a
 * non-empty text; the style select narrows either (`style=`). Its options are
 * the styles seen in the results so far, so a chosen style stays listed.
 */
export function BeersPanel() {
  const styleId = useId();
  const [text, setText] = useState('');
  const q = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const [style, setStyle] = useState('');
  const beers = useQuery({ ...beerListQuery(q, style), placeholderData: keepPreviousData });
  const [styles, setStyles] = useState<readonly string[]>([]);

  const data = beers.data;
  useEffect(() => {
    if (!data) return;
    setStyles((known) => {
      const merged = new Set(known);
      for (const beer of data) if (beer.style) merged.add(beer.style);
      return merged.size === known.length ? known : [...merged].sort((a, b) => a.localeCompare(b));
    });
  }, [data]);

  return (
    <div className="discovery-panel">
      <div className="discovery-toolbar">
        <SearchInput
          className="discovery-toolbar__search"
          label="Search beers"
          placeholder="Search beers, styles or breweries"
          maxLength={CATALOGUE_SEARCH_MAX}
          value={text}
          onChange={setText}
        />
        <div className="discovery-toolbar__filter">
          <label className="visually-hidden" htmlFor={styleId}>
            Style
          </label>
          <select id={styleId} className="field__input" value={style} onChange={(event) => setStyle(event.target.value)}>
            <option value="">All styles</option>
            {styles.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
      </div>
      {beers.isPending ? (
        <BeerListSkeleton />
      ) : beers.isError ? (
        <ListError text="Could not load beers." onRetry={() => void beers.refetch()} />
      ) : beers.data.length === 0 && !beers.isPlaceholderData ? (
        <EmptyState title="No beers found" text={q ? `Nothing matches "${q}".` : 'No beers in this style yet.'} />
      ) : (
        <BeerList label={q ? 'Beer search results' : 'Beers'} beers={beers.data} stale={beers.isPlaceholderData || text.trim() !== q} />
      )}
    </div>
  );
}

function BeerListSkeleton() {
  return (
    <div className="beer-list" role="status" aria-label="Loading beers">
      {Array.from({ length: 6 }, (_, index) => (
        <div key={index} className="beer-card beer-card--skeleton" aria-hidden="true">
          <span className="skeleton skeleton--line" />
          <span className="skeleton skeleton--line skeleton--short" />
        </div>
      ))}
    </div>
  );
}
