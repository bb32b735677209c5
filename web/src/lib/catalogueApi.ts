import type { QueryKey } from '@tanstack/react-query';
import type { Bar, Beer, CreateReviewBody } from '@hoptrack/proto';
import { api } from '../api';
import type { Coordinates } from './geolocation';

/**
 * Catalogue and Places calls (spec section 7, 'Bars and beers' and
 * 'Places'). Keys are the contracts' own, with the query that tells one list
 * from another (the paging is the query fn's).
 */
export const catalogueApi = {
  /** Near a point, the nearest matches first, each with its distance. */
  searchBars: (q: string, near?: Coordinates) => api.places.searchBars({ query: { q, lat: near?.lat, lng: near?.lng } }),
  nearbyBars: ({ lat, lng }: Coordinates) => api.places.nearbyBars({ query: { lat, lng } }),
  /** The one bar nearest the point within `radius` metres (with its distance), or none. */
  nearestBar: async ({ lat, lng }: Coordinates, radius: number) => (await api.places.nearbyBars({ query: { lat, lng, radius, limit: 1 } }))[0] ?? null,
  bar: (id: string) => api.places.bar({ params: { id } }),
  reviews: (barId: string, offset: number, limit: number) => api.places.reviews({ params: { id: barId }, query: { limit, offset } }),
  createReview: (barId: string, body: CreateReviewBody) => api.places.createReview({ params: { id: barId }, body }),
  deleteReview: (barId: string, reviewId: string) => api.places.deleteReview({ params: { id: barId, reviewId } }),
  voteReview: (barId: string, reviewId: string, isHelpful: boolean) =>
    api.places.voteHelpful({ params: { id: barId, reviewId }, body: { isHelpful } }),
  beers: (style?: string) => api.places.beers({ query: { style } }),
  searchBeers: (q: string, style?: string) => api.places.searchBeers({ query: { q, style } }),
  nearbyPlaces: ({ lat, lng }: Coordinates, radius: number, type: string) => api.places.placesNearby({ query: { lat, lng, radius, type } }),
  searchPlaces: (query: string, near?: Coordinates) => api.places.placesTextSearch({ query: { query, lat: near?.lat, lng: near?.lng } }),
  placeDetails: (placeId: string) => api.places.placeDetails({ query: { place_id: placeId } }),
  /** The image bytes: the call needs the Bearer header, which an <img src> cannot send. */
  placePhoto: async (reference: string, maxWidth: number) =>
    (await api.places.placePhoto.response({ query: { photoreference: reference, maxwidth: maxWidth } })).blob(),
};

export const placePhotoKey = (reference: string, maxWidth: number) =>
  api.places.placePhoto.key({ query: { photoreference: reference, maxwidth: maxWidth } });

/** What the bar list shows: a search (nearest first when the position is known), or the bars near a position. */
export type BarListSource = { kind: 'search'; q: string; near: Coordinates | null } | { kind: 'nearby'; at: Coordinates };

/** A list query's key and fn, for `useQuery({ ...listQuery, ... })`. */
export interface ListQuery<T> {
  queryKey: QueryKey;
  queryFn: () => Promise<T[]>;
}

/** Bars matching a text, nearest first near a position: the bar list's search, and the session form's place suggestions (one cache for both). */
export const barSearchQuery = (q: string, near: Coordinates | null = null): ListQuery<Bar> => ({
  queryKey: api.places.searchBars.key({ query: { q, lat: near?.lat, lng: near?.lng } }),
  queryFn: () => catalogueApi.searchBars(q, near ?? undefined),
});

export function barListQuery(source: BarListSource): ListQuery<Bar> {
  if (source.kind === 'search') return barSearchQuery(source.q, source.near);
  return {
    queryKey: api.places.nearbyBars.key({ query: { lat: source.at.lat, lng: source.at.lng } }),
    queryFn: () => catalogueApi.nearbyBars(source.at),
  };
}

export const barKey = (id: string) => api.places.bar.key({ params: { id } });
/** The reviews paged in below a bar's detail ('Show more reviews'). */
export const barReviewsKey = (id: string) => api.places.reviews.key({ params: { id } });
/** Everything cached of one bar: its detail and the reviews paged in below it. */
export const barKeys = (id: string): readonly QueryKey[] => [barKey(id), barReviewsKey(id)];

/** Reviews fetched per 'Show more reviews'. */
export const REVIEWS_PAGE = 10;

/**
 * What a review write changes: every bar's detail (its reviews, count and
 * rating) with the pages below it, and every bar list, whose cards show the
 * rating.
 */
export const REVIEW_WRITES_AFFECT: readonly QueryKey[] = [
  api.places.bars.key(),
  api.places.searchBars.key(),
  api.places.nearbyBars.key(),
  api.places.bar.key(),
  api.places.reviews.key(),
];

export function beerListQuery(q: string, style: string): ListQuery<Beer> {
  return q
    ? { queryKey: api.places.searchBeers.key({ query: { q, style } }), queryFn: () => catalogueApi.searchBeers(q, style || undefined) }
    : { queryKey: api.places.beers.key({ query: { style } }), queryFn: () => catalogueApi.beers(style || undefined) };
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

/** Countries of the North American Numbering Plan in the data sets: their numbers come as ten bare digits. */
const NANP_COUNTRIES = new Set(['united states', 'canada']);
/** A North American number: area code and exchange never start with 0 or 1. */
const NANP = /^1?([2-9]\d{2})([2-9]\d{2})(\d{4})$/;

/**
 * A phone to show and call (issue 40: the data sets' US numbers are ten bare
 * digits, '3035347543'): North American numbers as '(303) 534-7543' calling
 * +13035347543; others as the source wrote them ('+49 9261 628000'), called
 * by their digits. Null when there is nothing to call.
 */
export function phoneLink(phone: string, country?: string | null): { label: string; href: string } | null {
  const digits = phone.replace(/\D/g, '');
  if (!digits) return null;
  const international = phone.trim().startsWith('+');
  const nanp = !international && (!country || NANP_COUNTRIES.has(country.toLowerCase())) ? NANP.exec(digits) : null;
  if (nanp) return { label: `(${nanp[1]}) ${nanp[2]}-${nanp[3]}`, href: `tel:+1${nanp[1]}${nanp[2]}${nanp[3]}` };
  return { label: phone.trim(), href: `tel:${international ? '+' : ''}${digits}` };
}

/** The point on OpenStreetMap, with a marker ('Open in maps'). */
export function mapLink(lat: number | string, lng: number | string): string {
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=17/${lat}/${lng}`;
}
