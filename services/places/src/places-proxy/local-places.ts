import type { Bar, Place } from '@hoptrack/proto';
import { z } from 'zod';
import type { Catalogue } from '../domain/catalogue';
import type { PlacesSource } from './places-source';

/** Google types our catalogue can honestly answer: it holds bars and brewpubs. */
const SERVED_TYPES = new Set(['bar', 'restaurant', 'establishment', 'food', 'night_club', 'point_of_interest']);
const isUuid = (value: string) => z.uuid().safeParse(value).success;

function toPlace(bar: Bar): Place | null {
  if (bar.latitude === null || bar.longitude === null) return null;
  const parts = (...values: Array<string | null>) => values.filter((v): v is string => Boolean(v)).join(', ');
  return {
    place_id: bar.id,
    name: bar.name,
    vicinity: parts(bar.address, bar.city),
    formatted_address: parts(bar.address, bar.city, bar.state, bar.country),
    geometry: { location: { lat: bar.latitude, lng: bar.longitude } },
    ...(bar.rating !== null ? { rating: bar.rating } : {}),
    ...(bar.priceRange !== null ? { price_level: bar.priceRange } : {}),
    types: ['bar', 'restaurant', 'establishment'],
    photos: [],
    ...(bar.phone ? { formatted_phone_number: bar.phone } : {}),
    ...(bar.website ? { website: bar.website } : {}),
  };
}

const places = (bars: Bar[]) => bars.map(toPlace).filter((p): p is Place => p !== null);

/** The Places API answered from our own catalogue: the product works with no key and no internet. */
export class LocalPlaces implements PlacesSource {
  constructor(private readonly catalogue: Catalogue) {}

  async nearby(query: { lat: number; lng: number; radius: number; type?: string }): Promise<Place[]> {
    if (query.type && !SERVED_TYPES.has(query.type)) return [];
    return places(await this.catalogue.nearby({ lat: query.lat, lng: query.lng, radius: query.radius, limit: 20 }));
  }

  /** Given a point, the nearest matches of the whole catalogue (sorting the first 20 by name missed every nearer one). */
  async textSearch(query: { query: string; lat?: number; lng?: number }): Promise<Place[]> {
    const near = query.lat !== undefined && query.lng !== undefined ? { lat: query.lat, lng: query.lng } : undefined;
    return places(await this.catalogue.searchBars(query.query, { limit: 20, offset: 0 }, near));
  }

  async details(placeId: string): Promise<Place | null> {
    if (!isUuid(placeId)) return null;
    const bar = await this.catalogue.findBar(placeId);
    return bar ? toPlace(bar) : null;
  }

  async photo(): Promise<null> {
    return null; // the data sets carry no photos
  }
}
