import { useState } from 'react';
import { BarsPanel } from '../components/discovery/BarsPanel';
import { BeersPanel } from '../components/discovery/BeersPanel';
import { PageHeader } from '../components/PageHeader';
import { Tabs, useTabParam, type TabItem } from '../components/Tabs';
import { FindVenuesDialog, type ChosenVenue } from '../components/venues/FindVenuesDialog';

type DiscoveryTab = 'bars' | 'beers';

const TABS: readonly TabItem<DiscoveryTab>[] = [
  { id: 'bars', label: 'Bars & Restaurants' },
  { id: 'beers', label: 'Beers' },
];
const TAB_IDS = TABS.map((tab) => tab.id);

/** `/discovery`: bars and restaurants (near you or searched) and beers; 'Find Venues' picks a place (shown with its address). The tab is kept in `?tab=`. */
export function DiscoveryPage() {
  const [tab, setTab] = useTabParam(TAB_IDS, 'bars');
  const [finding, setFinding] = useState(false);
  const [venue, setVenue] = useState<ChosenVenue | null>(null);

  return (
    <div className="page page--medium">
      <PageHeader
        title="Discovery"
        subtitle="Bars, restaurants and beers near you."
        actions={
          <button type="button" className="button button--secondary button--small" aria-haspopup="dialog" onClick={() => setFinding(true)}>
            Find Venues
          </button>
        }
      />
      {venue && (
        <div className="discovery-note discovery-selected" role="status">
          <p>
            Selected: {venue.name} ({venue.latitude.toFixed(4)}, {venue.longitude.toFixed(4)})
          </p>
          {venue.address && <p>{venue.address}</p>}
        </div>
      )}
      <Tabs label="Discovery" items={TABS} value={tab} onChange={setTab}>
        {tab === 'bars' && <BarsPanel />}
        {tab === 'beers' && <BeersPanel />}
      </Tabs>
      <FindVenuesDialog open={finding} onClose={() => setFinding(false)} onSelect={setVenue} />
    </div>
  );
}
