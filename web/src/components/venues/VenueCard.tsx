import type { Place } from '@hoptrack/proto';
import { milesLabel } from '../../lib/geolocation';
import { PlaceTags } from '../discovery/PlaceTags';
import { ContactLinks } from './ContactLinks';
import { VenuePhoto } from './VenuePhoto';

interface VenueCardProps {
  place: Place;
  /** Miles from the user, when their position is known. */
  miles: number | null;
  disabled: boolean;
  onChoose: (place: Place) => void;
}

/**
 * One Find Venues result: what the Places proxy said of it and nothing more.
 * The local catalogue knows no hours, prices or photos; Google may. The
 * phone and website are links, so they sit below the button that picks it.
 */
export function VenueCard({ place, miles, disabled, onChoose }: VenueCardProps) {
  const address = place.vicinity ?? place.formatted_address;
  const photo = place.photos[0];
  return (
    <div className="venue-item">
      <button type="button" className="venue-card" disabled={disabled} onClick={() => onChoose(place)}>
        {photo && <VenuePhoto reference={photo.photo_reference} />}
        <span className="venue-card__text">
          <span className="venue-card__name">{place.name}</span>
          {address && <span className="venue-card__meta">{address}</span>}
          {miles !== null && <span className="venue-card__distance">{milesLabel(miles)}</span>}
          <PlaceTags rating={place.rating ?? null} priceLevel={place.price_level ?? null} openNow={place.opening_hours?.open_now ?? null} types={place.types} />
        </span>
      </button>
      <ContactLinks className="venue-card__contact" phone={place.formatted_phone_number} website={place.website} />
    </div>
  );
}
