import type { Place } from '@hoptrack/proto';

/** Where the Places proxy gets its answers: Google with a key, the local catalogue without. */
export interface PlacesSource {
  nearby(query: { lat: number; lng: number; radius: number; type?: string }): Promise<Place[]>;
  textSearch(query: { query: string; lat?: number; lng?: number }): Promise<Place[]>;
  /** Null when there is no such place. */
  details(placeId: string): Promise<Place | null>;
  /** Null when there is no such photo. */
  photo(reference: string, maxWidth: number): Promise<{ contentType: string; body: ArrayBuffer } | null>;
}
