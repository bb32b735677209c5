import type { QueryKey } from '@tanstack/react-query';
import type { Bar, BarDetail, Beer, CreateReviewBody, PlaceDetails, PlacesResults, Review } from '@hoptrack/proto';
import { apiRequest, apiResponse } from './api';
import type { Coordinates } from './geolocation';

/**
 * Catalogue and Places calls (spec section 7, 'Bars and beers' and 'Places').
 * Keys are URL parts; the parameters ride as the last part (an object), and
 * each key has its own query fn that builds the query string.
 */
const withParams = (path: string, params: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
};

export const catalogueApi = {
  bars: () => apiRequest<Bar[]>('GET', '/api/bars'),
  searchBars: (q: string) => apiRequest<Bar[]>('GET', withParams('/api/bars/search', { q })),
  nearbyBars: ({ lat, lng }: Coordinates) => apiRequest<Bar[]>('GET', withParams('/api/bars/nearby', { lat, lng })),
  bar: (id: string) => apiRequest<BarDetail>('GET', `/api/bars/${encodeURIComponent(id)}`),
  reviews: (barId: string, offset: number, limit: number) =>
    apiRequest<Review[]>('GET', withParams(`/api/bars/${encodeURIComponent(barId)}/reviews`, { limit, offset })),
  createReview: (barId: string, body: CreateReviewBody) =>
    apiRequest<Review>('POST', `/api/bars/${encodeURIComponent(barId)}/reviews`, body),
  deleteReview: (barId: string, reviewId: string) =>
    apiRequest<null>('DELETE', `/api/bars/${encodeURIComponent(barId)}/reviews/${encodeURIComponent(reviewId)}`),
  voteReview: (barId: string, reviewId: string, isHelpful: boolean) =>
    apiRequest<Review>('POST', `/api/bars/${encodeURIComponent(barId)}/reviews/${encodeURIComponent(reviewId)}/helpful`, { isHelpful }),
  beers: (style?: string) => apiRequest<Beer[]>('GET', withParams('/api/beers', { style })),
  searchBeers: (q: string, style?: string) => apiRequest<Beer[]>('GET', withParams('/api/beers/search', { q, style })),
  nearbyPlaces: ({ lat, lng }: Coordinates, radius: number, type: string) =>
    apiRequest<PlacesResults>('GET', withParams('/api/google-places/nearby', { lat, lng, radius, type })),
  searchPlaces: (query: string, near?: Coordinates) =>
    apiRequest<PlacesResults>('GET', withParams('/api/google-places/textsearch', { query, lat: near?.lat, lng: near?.lng })),
  placeDetails: (placeId: string) => apiRequest<PlaceDetails>('GET', withParams('/api/google-places/details', { place_id: placeId })),
  /** The image bytes: the call needs the Bearer header, which an <img src> cannot send. */
  placePhoto: async (reference: string, maxWidth: number) =>
    (await apiResponse('GET', withParams('/api/google-places/photo', { photoreference: reference, maxwidth: maxWidth }))).blob(),
};

export const placePhotoKey = (reference: string, maxWidth: number) => ['/api/google-places/photo', reference, maxWidth] as const;

/** What the bar list shows: a search wins over a location, which wins over the first page. */
export type BarListSource = { kind: 'search'; q: string } | { kind: 'nearby'; at: Coordinates } | { kind: 'all' };

/** A list query's key and fn, for `useQuery({ ...listQuery, ... })`. */
export interface ListQuery<T> {
  queryKey: QueryKey;
  queryFn: () => Promise<T[]>;
}

export function barListQuery(source: BarListSource): ListQuery<Bar> {
  switch (source.kind) {
    case 'search':
      return { queryKey: ['/api/bars/search', source.q], queryFn: () => catalogueApi.searchBars(source.q) };
    case 'nearby':
      return {
        queryKey: ['/api/bars/nearby', source.at.lat, source.at.lng],
        queryFn: () => catalogueApi.nearbyBars(source.at),
      };
    default:
      return { queryKey: ['/api/bars'], queryFn: catalogueApi.bars };
  }
}

export const barKey = (id: string) => ['/api/bars', id] as const;
/** The reviews paged in below a bar's detail ('Show more reviews'); under `barKey`, so invalidating the bar refreshes them too. */
export const barReviewsKey = (id: string) => [...barKey(id), 'reviews'] as const;

/** Reviews fetched per 'Show more reviews'. */
export const REVIEWS_PAGE = 10;

/**
 * What a review write changes: the bar's detail (its reviews, count and
 * rating) with the pages below it, and every bar list, whose cards show the
 * rating. `['/api/bars']` is the first page and, as a prefix, every bar's detail.
 */
export const REVIEW_WRITES_AFFECT: readonly QueryKey[] = [['/api/bars'], ['/api/bars/search'], ['/api/bars/nearby']];

export function beerListQuery(q: string, style: string): ListQuery<Beer> {
  return q
    ? { queryKey: ['/api/beers/search', q, style], queryFn: () => catalogueApi.searchBeers(q, style || undefined) }
    : { queryKey: ['/api/beers', style], queryFn: () => catalogueApi.beers(style || undefined) };
}

/** ABV is a fraction: 0.065 → '6.5%'. */
export function abvLabel(abv: number): string {
  return `${(Math.round(abv * 1000) / 10).toFixed(1)}%`;
}

const PRICE = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** A menu price: 8.5 → '$8.50'. */
export function priceLabel(price: number): string {
  return PRICE.format(price);
}

/** '1 review', '12 reviews'. */
export function reviewCountLabel(count: number): string {
  return `${count} ${count === 1 ? 'review' : 'reviews'}`;
}

/** 'Street, City, State' from the parts that are known. */
export function barAddress(bar: Pick<Bar, 'address' | 'city' | 'state'>): string {
  return [bar.address, bar.city, bar.state].filter(Boolean).join(', ');
}

/** Google's price levels, 0 (free) to 4 (very expensive); the catalogue's price range uses 1 to 4 the same way. */
export function priceLevelLabel(level: number): string {
  return level <= 0 ? 'Free' : '$'.repeat(Math.min(level, 4));
}

/** Google's catch-all types, true of every place: they say nothing on a card. */
const GENERIC_PLACE_TYPES = new Set(['establishment', 'point_of_interest']);
/** Types shown on a card. */
const PLACE_TYPES_SHOWN = 3;

/** 'night_club' → 'night club', the catch-alls left out, at most PLACE_TYPES_SHOWN. */
export function placeTypeLabels(types: readonly string[]): string[] {
  return types
    .filter((type) => !GENERIC_PLACE_TYPES.has(type))
    .slice(0, PLACE_TYPES_SHOWN)
    .map((type) => type.replaceAll('_', ' '));
}

/** A website to link to: http(s) only (the address comes from outside), shown by its host. */
export function websiteLink(website: string): { href: string; host: string } | null {
  try {
    const url = new URL(website);
    return url.protocol === 'http:' || url.protocol === 'https:' ? { href: url.href, host: url.host } : null;
  } catch {
    return null;
  }
}
