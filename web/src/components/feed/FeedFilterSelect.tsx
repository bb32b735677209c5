import type { FeedFilter } from '@hoptrack/proto';
import { FEED_FILTERS } from '@hoptrack/proto/constants';

const LABELS: Readonly<Record<FeedFilter, string>> = {
  all: 'All Activities',
  following: 'Following',
  mine: 'My Activities',
};

function isFeedFilter(value: string): value is FeedFilter {
  return (FEED_FILTERS as readonly string[]).includes(value);
}

/** 'All Activities' / 'Following' / 'My Activities' (values all, following, mine). */
export function FeedFilterSelect({ value, onChange }: { value: FeedFilter; onChange: (filter: FeedFilter) => void }) {
  return (
    <select
      className="select"
      aria-label="Filter activities"
      value={value}
      onChange={(event) => {
        if (isFeedFilter(event.target.value)) onChange(event.target.value);
      }}
    >
      {FEED_FILTERS.map((filter) => (
        <option key={filter} value={filter}>
          {LABELS[filter]}
        </option>
      ))}
    </select>
  );
}
