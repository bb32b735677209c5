import type { FeedFilter } from '@hoptrack/proto';
import { Suspense, useState } from 'react';
import { FeedFilterSelect } from '../components/feed/FeedFilterSelect';
import { FeedList } from '../components/feed/FeedList';
import { SideProfileCard } from '../components/feed/SideProfileCard';
import { PageHeader } from '../components/PageHeader';
import { lazyNamed } from '../lib/lazyNamed';

// The session form (venues, music, photo) is fetched when first opened, not with the feed.
const LogSessionDialog = lazyNamed(() => import('../components/sessions/LogSessionDialog'), 'LogSessionDialog');

/**
 * `/` signed in (spec section 2): 'Activity Feed' with its filter (sent to
 * the server as `filter`; default all), the side profile card on wide
 * screens, a floating add button on narrow ones, and the feed.
 */
export function FeedPage() {
  const [filter, setFilter] = useState<FeedFilter>('all');
  const [logging, setLogging] = useState(false);
  const openLog = () => setLogging(true);
  return (
    <div className="page">
      <PageHeader
        title="Activity Feed"
        subtitle="What your friends have been drinking."
        actions={<FeedFilterSelect value={filter} onChange={setFilter} />}
      />
      <div className="feed-layout">
        <aside className="feed-layout__side">
          <SideProfileCard onLogSession={openLog} />
        </aside>
        <div className="feed-layout__main">
          <FeedList filter={filter} onLogSession={openLog} />
        </div>
      </div>
      <button type="button" className="feed-fab" aria-label="Log Session" title="Log Session" onClick={openLog}>
        <span aria-hidden="true">+</span>
      </button>
      {logging && (
        <Suspense fallback={null}>
          <LogSessionDialog onClose={() => setLogging(false)} />
        </Suspense>
      )}
    </div>
  );
}
