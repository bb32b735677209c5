import { useQuery } from '@tanstack/react-query';
import type { Bar } from '@hoptrack/proto';
import { barAddress, barKey, catalogueApi } from '../../lib/catalogueApi';
import { milesLabel } from '../../lib/geolocation';
import { EmptyState } from '../EmptyState';
import { LoadingState } from '../LoadingState';
import { Modal } from '../Modal';
import { ListError } from '../social/UserList';
import { BarFood } from './BarFood';
import { BarReviews } from './BarReviews';
import { BeerList } from './BeerList';

/**
 * A bar opened from a list: its details (GET /api/bars/{id}), the beers it
 * serves, its food (when it lists any) and its reviews.
 */
export function BarDetailModal({ bar, onClose }: { bar: Bar; onClose: () => void }) {
  const detail = useQuery({ queryKey: barKey(bar.id), queryFn: () => catalogueApi.bar(bar.id) });
  const shown = detail.data ?? bar;
  const address = barAddress(shown);
  const facts = [
    address,
    bar.distance !== null ? milesLabel(bar.distance) : '',
    shown.rating !== null ? `★ ${shown.rating.toFixed(1)}` : '',
    shown.phone ?? '',
  ].filter(Boolean);

  return (
    <Modal open title={shown.name} description={facts.join(' · ') || undefined} onClose={onClose}>
      {shown.website && (
        <p className="bar-detail__website">
          <a href={shown.website} target="_blank" rel="noreferrer">
            {shown.website}
          </a>
        </p>
      )}
      <h3 className="bar-detail__heading">Beers</h3>
      {detail.isPending ? (
        <LoadingState label="Loading beers..." />
      ) : detail.isError ? (
        <ListError text="Could not load this bar's beers." onRetry={() => void detail.refetch()} />
      ) : (
        <>
          {detail.data.beers.length === 0 ? (
            <EmptyState title="No beers listed" text="This bar has no beers in the catalogue yet." headingLevel={3} />
          ) : (
            <BeerList label={`Beers at ${shown.name}`} beers={detail.data.beers} />
          )}
          {detail.data.food.length > 0 && (
            <>
              <h3 className="bar-detail__heading">Food</h3>
              <BarFood barName={shown.name} food={detail.data.food} />
            </>
          )}
          <BarReviews bar={detail.data} />
        </>
      )}
    </Modal>
  );
}
