import type { Place, placesApi } from '@hoptrack/proto';
import { notFound, type Handlers } from '@hoptrack/runtime';
import type { PlacesSource } from '../places-proxy/places-source';

const results = (list: Place[]) => ({ results: list, status: list.length > 0 ? ('OK' as const) : ('ZERO_RESULTS' as const) });

/** /api/google-places/*: the Places calls of spec section 7, in Google's response shape. */
export function placesProxyHandlers(
  source: PlacesSource,
): Pick<Handlers<typeof placesApi>, 'placesNearby' | 'placesTextSearch' | 'placeDetails' | 'placePhoto'> {
  return {
    placesNearby: async (request) => results(await source.nearby(request.query)),
    placesTextSearch: async (request) => results(await source.textSearch(request.query)),
    placeDetails: async (request) => {
      const place = await source.details(request.query.place_id);
      if (!place) throw notFound('Place not found');
      return { result: place, status: 'OK' as const };
    },
    placePhoto: async (request, reply) => {
      const photo = await source.photo(request.query.photoreference, request.query.maxwidth);
      if (!photo) throw notFound('Photo not found');
      return reply.header('content-type', photo.contentType).header('cache-control', 'public, max-age=86400').send(Buffer.from(photo.body));
    },
  };
}
