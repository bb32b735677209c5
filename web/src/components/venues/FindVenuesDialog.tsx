import type { Place } from '@hoptrack/proto';
import { CATALOGUE_SEARCH_MAX } from '@hoptrack/proto/constants';
import { useState, type FormEvent } from 'react';
import { catalogueApi } from '../../lib/catalogueApi';
import { locationFailureToast, milesBetween, type Coordinates } from '../../lib/geolocation';
import { locate, useKnownPosition } from '../../lib/knownPosition';
import { useToast } from '../../lib/toast';
import { EmptyState } from '../EmptyState';
import { CompassIcon } from '../icons';
import { SearchInput } from '../SearchInput';
import { Modal } from '../Modal';
import { VenueCard } from './VenueCard';

/** What choosing a venue hands back. */
export interface ChosenVenue {
  name: string;
  latitude: number;
  longitude: number;
  address?: string;
}

interface FindVenuesDialogProps {
  open: boolean;
  onClose: () => void;
  onSelect: (venue: ChosenVenue) => void;
}

/**
 * The nearby-venue fall-backs (spec section 9): bars within 5000 m, then
 * restaurants within 5000 m, then any establishment within 10000 m.
 */
export const NEARBY_VENUE_STEPS: readonly { radius: number; type: string }[] = [
  { radius: 5000, type: 'bar' },
  { radius: 5000, type: 'restaurant' },
  { radius: 10000, type: 'establishment' },
];

/** The 2 sample venues shown when nothing is near: placed just beside the user. */
export function sampleVenues(at: Coordinates): Place[] {
  return [
    { id: 'sample-1', name: 'The Local Taproom', vicinity: 'Near you', dLat: 0.002, dLng: 0.002 },
    { id: 'sample-2', name: 'Corner Brewpub', vicinity: 'Near you', dLat: -0.003, dLng: 0.001 },
  ].map((sample) => ({
    place_id: sample.id,
    name: sample.name,
    vicinity: sample.vicinity,
    geometry: { location: { lat: at.lat + sample.dLat, lng: at.lng + sample.dLng } },
    types: ['bar', 'establishment'],
    photos: [],
  }));
}

/** Runs the fall-back chain; a failed call throws (no further step is tried). */
export async function findNearbyVenues(at: Coordinates): Promise<Place[]> {
  for (const step of NEARBY_VENUE_STEPS) {
    const answer = await catalogueApi.nearbyPlaces(at, step.radius, step.type);
    if (answer.results.length > 0) return answer.results;
  }
  return sampleVenues(at);
}

type Results = { kind: 'nearby' | 'search'; places: Place[] } | null;

/** The sample venues are made up beside the user: the Places proxy has no details of them. */
const isSampleVenue = (place: Place) => place.place_id.startsWith('sample-');

/**
 * 'Find Venues' (spec section 2, dialogs): venues near the user through the
 * Places proxy, or a text search — nearest first, with distances, whenever
 * the position is known (issue 40: a search before 'Find Venues' ranked far
 * places first and showed no distance); choosing one fetches its details (the full
 * address), hands its name, coordinates and address to `onSelect` and closes.
 * A failed details call says 'Failed to fetch place details' (spec section 8)
 * and keeps the dialog open for another pick.
 */
export function FindVenuesDialog({ open, onClose, onSelect }: FindVenuesDialogProps) {
  const toast = useToast();
  const [text, setText] = useState('');
  const { at: here } = useKnownPosition();
  const [results, setResults] = useState<Results>(null);
  const [busy, setBusy] = useState<'nearby' | 'search' | 'details' | null>(null);

  const findNearby = async () => {
    setBusy('nearby');
    try {
      let at: Coordinates;
      try {
        at = await locate();
      } catch (error) {
        toast(locationFailureToast(error));
        return;
      }
      try {
        const places = await findNearbyVenues(at);
        setResults({ kind: 'nearby', places });
        toast({ title: 'Venues Found', description: `Found ${places.length} ${places.length === 1 ? 'venue' : 'venues'} near you.` });
      } catch {
        toast({ title: 'Error', description: 'Failed to fetch nearby places', variant: 'destructive' });
      }
    } finally {
      setBusy(null);
    }
  };

  const search = async (event: FormEvent) => {
    event.preventDefault();
    const query = text.trim();
    if (!query) return;
    setBusy('search');
    try {
      const answer = await catalogueApi.searchPlaces(query, here ?? undefined);
      setResults({ kind: 'search', places: answer.results });
    } catch {
      toast({ title: 'Error', description: 'Failed to search places', variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  };

  const choose = async (listed: Place) => {
    let place = listed;
    if (!isSampleVenue(listed)) {
      setBusy('details');
      try {
        place = (await catalogueApi.placeDetails(listed.place_id)).result;
      } catch {
        toast({ title: 'Error', description: 'Failed to fetch place details', variant: 'destructive' });
        return;
      } finally {
        setBusy(null);
      }
    }
    const address = place.formatted_address ?? place.vicinity;
    onSelect({
      name: place.name,
      latitude: place.geometry.location.lat,
      longitude: place.geometry.location.lng,
      ...(address ? { address } : {}),
    });
    onClose();
  };

  return (
    <Modal open={open} title="Find Venues" description="Pick a bar or restaurant near you, or search for one." onClose={onClose}>
      <div className="venue-finder">
        <form className="venue-finder__search" onSubmit={(event) => void search(event)}>
          <SearchInput
            className="venue-finder__box"
            label="Search places"
            placeholder="Search for a venue"
            maxLength={CATALOGUE_SEARCH_MAX}
            value={text}
            onChange={setText}
          />
          <button type="submit" className="button button--secondary" disabled={busy !== null || !text.trim()}>
            {busy === 'search' ? 'Searching...' : 'Search'}
          </button>
        </form>
        <button type="button" className="button button--primary" disabled={busy !== null} onClick={() => void findNearby()}>
          <CompassIcon width={18} height={18} aria-hidden="true" />
          {busy === 'nearby' ? 'Finding venues...' : 'Find Venues'}
        </button>
        {results &&
          (results.places.length === 0 ? (
            <EmptyState title="No venues found" text="Try another search." Icon={CompassIcon} headingLevel={3} />
          ) : (
            <ul className="venue-list" aria-label={results.kind === 'nearby' ? 'Venues near you' : 'Venue search results'}>
              {results.places.map((place) => (
                <li key={place.place_id}>
                  <VenueCard
                    place={place}
                    miles={here ? milesBetween(here, place.geometry.location) : null}
                    disabled={busy !== null}
                    onChoose={(chosen) => void choose(chosen)}
                  />
                </li>
              ))}
            </ul>
          ))}
      </div>
    </Modal>
  );
}
