import { z } from 'zod';
import { BAR_DETAIL_REVIEWS, CATALOGUE_SEARCH_MAX, NEARBY_DEFAULT_RADIUS_M, NEARBY_MAX_RADIUS_M, PLACES_STATUSES, REVIEW_TEXT_MAX } from './constants';
import { uuid } from './common';
import { pagination } from './social';

/**
 * The catalogue (spec sections 3, 7, 9). Distances are miles on a sphere of
 * radius 3959 (spec section 9); radii are metres, as the Places API takes them.
 */
const searchText = z
  .string({ error: 'q is required' })
  .trim()
  .min(1, { error: 'q is required' })
  .max(CATALOGUE_SEARCH_MAX, { error: `Search query must be at most ${CATALOGUE_SEARCH_MAX} characters` });

const coordinate = (name: string, limit: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .refine(Number.isFinite, { error: `${name} must be a number` })
    .refine((v) => v >= -limit && v <= limit, { error: `${name} must be between -${limit} and ${limit}` });

export const barsQuery = z.object(pagination);
/**
 * GET /api/bars/search?q=[&lat&lng]: with a point (issue 40), the nearest
 * matches come first, each with its distance; a point needs both halves.
 */
export const barSearchQuery = z
  .object({ q: searchText, lat: coordinate('lat', 90).optional(), lng: coordinate('lng', 180).optional(), ...pagination })
  .superRefine((query, ctx) => {
    const missing = query.lat === undefined ? (query.lng === undefined ? null : 'lat') : query.lng === undefined ? 'lng' : null;
    if (missing) ctx.addIssue({ code: 'custom', path: [missing], message: `${missing} is required with ${missing === 'lat' ? 'lng' : 'lat'}` });
  });
export type BarSearchQuery = z.infer<typeof barSearchQuery>;
export const nearbyQuery = z.object({
  lat: coordinate('lat', 90),
  lng: coordinate('lng', 180),
  radius: z.coerce
    .number({ error: 'radius must be a number' })
    .positive({ error: 'radius must be greater than 0' })
    .max(NEARBY_MAX_RADIUS_M, { error: `radius must be at most ${NEARBY_MAX_RADIUS_M} metres` })
    .default(NEARBY_DEFAULT_RADIUS_M),
  limit: pagination.limit,
});
export type NearbyQuery = z.infer<typeof nearbyQuery>;

export const beersQuery = z.object({ style: z.string().trim().max(CATALOGUE_SEARCH_MAX).optional(), ...pagination });
/** GET /api/beers/search?q=: matches name, style and brewery; `style` narrows to one style. */
export const beerSearchQuery = z.object({ q: searchText, style: z.string().trim().max(CATALOGUE_SEARCH_MAX).optional(), ...pagination });

export const bar = z.object({
  id: z.uuid(),
  name: z.string(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  country: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  phone: z.string().nullable(),
  website: z.string().nullable(),
  rating: z.number().nullable(),
  priceRange: z.number().int().nullable(),
  /** Opening hours are not in the data sets: unknown. */
  isOpen: z.boolean().nullable(),
  /** Miles from the searched point, one decimal; null outside a nearby search. */
  distance: z.number().nullable(),
  types: z.array(z.string()),
});
export type Bar = z.infer<typeof bar>;

/** A beer as the spec's client reads it (note `image_url`). */
export const beer = z.object({
  id: z.uuid(),
  name: z.string(),
  brewery: z.string(),
  style: z.string().nullable(),
  abv: z.number().nullable(),
  ibu: z.number().int().nullable(),
  description: z.string().nullable(),
  image_url: z.string().nullable(),
});
export type Beer = z.infer<typeof beer>;

// ---- Menus and reviews (spec section 3: food_items, bar_food, bar_reviews, review_helpfulness) ----

/** A dish on a bar's menu: a food item with this bar's price and availability. */
export const foodItem = z.object({
  id: z.uuid(),
  name: z.string(),
  category: z.string().nullable(),
  description: z.string().nullable(),
  imageUrl: z.string().nullable(),
  allergens: z.array(z.string()),
  price: z.number().nullable(),
  isAvailable: z.boolean(),
});
export type FoodItem = z.infer<typeof foodItem>;

export const review = z.object({
  id: z.uuid(),
  barId: z.uuid(),
  /** Null for a review imported from elsewhere (`source` other than 'hoptrack'). */
  userId: z.uuid().nullable(),
  authorName: z.string(),
  authorPicture: z.string().nullable(),
  rating: z.number().int().min(1).max(5),
  reviewText: z.string().nullable(),
  source: z.string(),
  sourceUrl: z.string().nullable(),
  reviewDate: z.string(),
  /** Written by a signed-in Hoptrack user (as opposed to imported). */
  isVerified: z.boolean(),
  /** Votes saying the review helped. */
  helpfulCount: z.number().int().nonnegative(),
  /** The viewer's vote: true helpful, false not helpful, null not voted. */
  currentUserVote: z.boolean().nullable(),
  isOwn: z.boolean(),
});
export type Review = z.infer<typeof review>;

export const createReviewBody = z.object({
  rating: z
    .number({ error: 'rating must be a number from 1 to 5' })
    .int({ error: 'rating must be a whole number from 1 to 5' })
    .min(1, { error: 'rating must be from 1 to 5' })
    .max(5, { error: 'rating must be from 1 to 5' }),
  reviewText: z
    .string({ error: 'reviewText must be text' })
    .trim()
    .max(REVIEW_TEXT_MAX, { error: `Review must be at most ${REVIEW_TEXT_MAX} characters` })
    .nullish()
    .transform((text) => (text ? text : null)),
});
export type CreateReviewBody = z.infer<typeof createReviewBody>;

/** POST /api/bars/{id}/reviews/{reviewId}/helpful; without a body the vote is 'helpful'. */
export const helpfulVoteBody = z
  .object({ isHelpful: z.boolean({ error: 'isHelpful must be true or false' }).default(true) })
  .nullish()
  .transform((body) => body ?? { isHelpful: true });
export const reviewParams = z.object({ id: uuid, reviewId: uuid });
export const reviewsQuery = z.object(pagination);

export const barDetail = bar.extend({
  beers: z.array(beer),
  food: z.array(foodItem),
  /** The newest reviews the viewer may see (blocked authors left out), at most BAR_DETAIL_REVIEWS. */
  reviews: z.array(review),
  reviewCount: z.number().int().nonnegative(),
});
export type BarDetail = z.infer<typeof barDetail>;

// ---- Places proxy (/api/google-places/*), in Google Places' response shape ----

export const placesNearbyQuery = z.object({
  lat: coordinate('lat', 90),
  lng: coordinate('lng', 180),
  radius: nearbyQuery.shape.radius,
  /** Google's place type; the local catalogue holds bars and brewpubs, which serve 'bar', 'restaurant' and 'establishment'. */
  type: z.string().trim().max(50).optional(),
});
export const placesTextSearchQuery = z.object({
  query: searchText,
  lat: coordinate('lat', 90).optional(),
  lng: coordinate('lng', 180).optional(),
});
export const placesDetailsQuery = z.object({ place_id: z.string().trim().min(1, { error: 'place_id is required' }).max(300) });
export const placesPhotoQuery = z.object({
  photoreference: z.string().trim().min(1, { error: 'photoreference is required' }).max(1000),
  maxwidth: z.coerce.number().int().min(1).max(1600).default(400),
});

export const place = z.object({
  place_id: z.string(),
  name: z.string(),
  vicinity: z.string().optional(),
  formatted_address: z.string().optional(),
  geometry: z.object({ location: z.object({ lat: z.number(), lng: z.number() }) }),
  rating: z.number().optional(),
  price_level: z.number().int().optional(),
  opening_hours: z.object({ open_now: z.boolean() }).optional(),
  types: z.array(z.string()),
  photos: z.array(z.object({ photo_reference: z.string(), width: z.number(), height: z.number() })),
  formatted_phone_number: z.string().optional(),
  website: z.string().optional(),
});
export type Place = z.infer<typeof place>;

export const placesResults = z.object({ results: z.array(place), status: z.enum(PLACES_STATUSES) });
export type PlacesResults = z.infer<typeof placesResults>;
export const placeDetails = z.object({ result: place, status: z.enum(PLACES_STATUSES) });
export type PlaceDetails = z.infer<typeof placeDetails>;
