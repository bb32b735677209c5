import type { Place } from '@hoptrack/proto';
import { HttpError } from '@hoptrack/runtime';
import type { PlacesSource } from './places-source';

const BASE = 'https://maps.googleapis.com/maps/api/place';
const TIMEOUT_MS = 5000;

interface GoogleAnswer {
  status: string;
  results?: Place[];
  result?: Place;
}

/**
 * Google Places, keyed on the server so the key never reaches a browser.
 * Answers pass through in Google's own shape, which is the proxy's contract.
 * (Not exercised by our tests: the machines have no internet.)
 */
export class GooglePlaces implements PlacesSource {
  constructor(private readonly apiKey: string) {}

  async nearby(query: { lat: number; lng: number; radius: number; type?: string }): Promise<Place[]> {
    const params = { location: `${query.lat},${query.lng}`, radius: String(query.radius), ...(query.type ? { type: query.type } : {}) };
    return (await this.call('nearbysearch', params)).results ?? [];
  }

  async textSearch(query: { query: string; lat?: number; lng?: number }): Promise<Place[]> {
    const params = { query: query.query, ...(query.lat !== undefined && query.lng !== undefined ? { location: `${query.lat},${query.lng}` } : {}) };
    return (await this.call('textsearch', params)).results ?? [];
  }

  async details(placeId: string): Promise<Place | null> {
    const answer = await this.call('details', { place_id: placeId });
    return answer.result ?? null;
  }

  async photo(reference: string, maxWidth: number): Promise<{ contentType: string; body: ArrayBuffer } | null> {
    const res = await this.fetch('photo', { photoreference: reference, maxwidth: String(maxWidth) });
    if (res.status === 404 || res.status === 400) return null;
    if (!res.ok) throw new HttpError(502, 'The places provider failed to answer');
    return { contentType: res.headers.get('content-type') ?? 'image/jpeg', body: await res.arrayBuffer() };
  }

  private async call(endpoint: string, params: Record<string, string>): Promise<GoogleAnswer> {
    const res = await this.fetch(`${endpoint}/json`, params);
    if (!res.ok) throw new HttpError(502, 'The places provider failed to answer');
    const answer = (await res.json()) as GoogleAnswer;
    if (answer.status !== 'OK' && answer.status !== 'ZERO_RESULTS' && answer.status !== 'NOT_FOUND') {
      throw new HttpError(502, `The places provider answered ${answer.status}`);
    }
    return answer;
  }

  private fetch(path: string, params: Record<string, string>): Promise<Response> {
    const url = `${BASE}/${path}?${new URLSearchParams({ ...params, key: this.apiKey })}`;
    return fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  }
}
