import { useQuery } from '@tanstack/react-query';
import type { BarDetail } from '@hoptrack/proto';
import { useLocation } from 'react-router';
import { ApiError } from '../../api';
import { barAddress, barKey, catalogueApi } from '../../lib/catalogueApi';
import { milesBetween, milesLabel, type Coordinates } from '../../lib/geolocation';
import { EmptyState } from '../EmptyState';
import { LoadingState } from '../LoadingState';
import { Modal } from '../Modal';
import { ListError } from '../social/UserList';
import { ContactLinks } from '../venues/ContactLinks';
import { BarFood } from './BarFood';
import { BarReviews } from './BarReviews';
import { BeerList } from './BeerList';

/** How the bar was opened: from a list on this page (closing goes back to it) or from a link. */
export interface OpenedFromList {
  fromList: boolean;
}

interface BarDetailModalProps {
  /** The bar of the address (/bars/{id}). */
  barId: string;
  /** Where the viewer is, when known: the bar's distance. */
  here: Coordinates | null;
  onClose: (opened: OpenedFromList) => void;
}

/**
 * A bar at its own address (/bars/{id}, issue 40: it was a dialog with no
 * URL): its details (GET /api/bars/{id}) with the distance when the position
 * is known, its phone to call, its website and its place on OpenStreetMap,
 * the beers it serves, its food (when it lists any) and its reviews.
 */
export function BarDetailModal({ barId, here, onClose }: BarDetailModalProps) {
  const detail = useQuery({ queryKey: barKey(barId), queryFn: () => catalogueApi.bar(barId) });
  const location = useLocation();
  const opened: OpenedFromList = { fromList: (location.state as Partial<OpenedFromList> | null)?.fromList === true };
  const close = () => onClose(opened);

  if (detail.isPending) {
    return (
      <Modal open title="Bar" onClose={close}>
        <LoadingState label="Loading bar..." />
      </Modal>
    );
  }
  if (detail.isError) {
    // An address that names no bar (a wrong id, one gone from the catalogue) says so; a failed call offers to try again.
    const missing = detail.error instanceof ApiError && (detail.error.status === 404 || detail.error.status === 400);
    return (
      <Modal open title={missing ? 'Bar not found' : 'Bar'} onClose={close}>
        {missing ? (
          <p className="bar-detail__missing">This address does not lead to a bar in the catalogue.</p>
        ) : (
          <ListError text="Could not load this bar." onRetry={() => void detail.refetch()} />
        )}
      </Modal>
    );
  }
  const bar = detail.data;
  return (
    <Modal open title={bar.name} description={barFacts(bar, here) || undefined} onClose={close}>
      <ContactLinks
        className="bar-detail__links"
        phone={bar.phone}
        country={bar.country}
        website={bar.website}
        at={bar.latitude !== null && bar.longitude !== null ? { lat: bar.latitude, lng: bar.longitude } : null}
      />
      <h3 className="bar-detail__heading">Beers</h3>
      {bar.beers.length === 0 ? (
        <EmptyState title="No beers listed" text="This bar has no beers in the catalogue yet." headingLevel={3} />
      ) : (
        <BeerList label={`Beers at ${bar.name}`} beers={bar.beers} />
      )}
      {bar.food.length > 0 && (
        <>
          <h3 className="bar-detail__heading">Food</h3>
          <BarFood barName={bar.name} food={bar.food} />
        </>
      )}
      <BarReviews bar={bar} />
    </Modal>
  );
}

/** The line under the name: address, distance, rating, each when known. */
function barFacts(bar: BarDetail, here: Coordinates | null): string {
  const at = bar.latitude !== null && bar.longitude !== null ? { lat: bar.latitude, lng: bar.longitude } : null;
  return [barAddress(bar), here && at ? milesLabel(milesBetween(here, at)) : '', bar.rating !== null ? `★ ${bar.rating.toFixed(1)}` : '']
    .filter(Boolean)
    .join(' · ');
}
