import { useState } from 'react';
import { ComingSoon } from '../components/ComingSoon';
import { PageHeader } from '../components/PageHeader';

const FEED_FILTERS = [
  { value: 'all', label: 'All Activities' },
  { value: 'following', label: 'Following' },
  { value: 'mine', label: 'My Activities' },
] as const;

type FeedFilter = (typeof FEED_FILTERS)[number]['value'];

function isFeedFilter(value: string): value is FeedFilter {
  return FEED_FILTERS.some((filter) => filter.value === value);
}

/** `/` signed in. The filter is local state only; it is not sent to the server (spec section 2). */
export function FeedPage() {
  const [filter, setFilter] = useState<FeedFilter>('all');
  return (
    <div className="page">
      <PageHeader
        title="Activity Feed"
        subtitle="What your friends have been drinking."
        actions={
          <select
            className="select"
            aria-label="Filter activities"
            value={filter}
            onChange={(event) => {
              if (isFeedFilter(event.target.value)) setFilter(event.target.value);
            }}
          >
            {FEED_FILTERS.map(({ value, label }) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        }
      />
      <ComingSoon description="Beer sessions from you and the people you follow will show up here." />
    </div>
  );
}
