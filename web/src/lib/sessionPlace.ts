import { catalogueApi } from './catalogueApi';
import { milesBetween, type Coordinates } from './geolocation';
import { locate } from './knownPosition';

/** The place of a session: its name and, when known, coordinates (text, spec section 3). */
export interface SessionPlace {
  location: string;
  latitude: string;
  longitude: string;
}

/** Within this of a bar one is at it: its name is the place. */
const AT_MILES = 0.05;
/** Within this, the place is 'Near <bar>'; farther, no name is made up. */
const NEAR_MILES = 0.5;
const METRES_PER_MILE = 1609.344;
/** A name that came with coordinates still names a position this close to them. */
const SAME_PLACE_MILES = 0.1;

/** A coordinate as a session stores it (text, spec section 3): six decimals, about 10 cm. */
export const coordinate = (value: number) => value.toFixed(6);

function pointOf(place: SessionPlace): Coordinates | null {
  const [lat, lng] = [Number(place.latitude), Number(place.longitude)];
  return place.latitude && place.longitude && Number.isFinite(lat) && Number.isFinite(lng) ? { lat, lng } : null;
}

/**
 * 'Use my location' (issue 40): the browser's position, and the name to go
 * with it. A name typed by hand (no coordinates) is the person's word and
 * stays. A name that came with coordinates (a venue picked, a suggestion, an
 * earlier position) stays only while the new position is that place: one
 * picked in Bavaria and then replaced by a position in Denver named the wrong
 * bar. Without a name, the nearest bar gives one: its own when one is at it,
 * 'Near <bar>' within half a mile, else none (the position alone).
 */
export async function placeAt(current: SessionPlace): Promise<SessionPlace> {
  const at = await locate();
  const position = { latitude: coordinate(at.lat), longitude: coordinate(at.lng) };
  const was = pointOf(current);
  const name = current.location.trim();
  if (name && (!was || milesBetween(was, at) <= SAME_PLACE_MILES)) return { location: current.location, ...position };
  const nearest = await catalogueApi.nearestBar(at, NEAR_MILES * METRES_PER_MILE).catch(() => null);
  const miles = nearest?.distance ?? null;
  const location = nearest && miles !== null ? (miles <= AT_MILES ? nearest.name : `Near ${nearest.name}`) : '';
  return { location, ...position };
}

/** What the form says of a position: never its raw coordinates; rounded (about a kilometre) only when it has no name. */
export function positionLabel(place: SessionPlace): string {
  const point = pointOf(place);
  if (place.location.trim() || !point) return 'Position added';
  return `Position added (about ${point.lat.toFixed(2)}, ${point.lng.toFixed(2)})`;
}
