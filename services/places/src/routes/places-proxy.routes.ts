import { placeDetails, placesDetailsQuery, placesNearbyQuery, placesPhotoQuery, placesResults, placesTextSearchQuery, type Place } from '@hoptrack/proto';
import { notFound, type Authenticate, type ServiceApp } from '@hoptrack/runtime';
import type { PlacesSource } from '../places-proxy/places-source';

const results = (list: Place[]) => ({ results: list, status: list.length > 0 ? ('OK' as const) : ('ZERO_RESULTS' as const) });

/** /api/google-places/*: the Places calls of spec section 7, in Google's response shape. */
export function placesProxyRoutes(app: ServiceApp, source: PlacesSource, authenticate: Authenticate): void {
  const guarded = { preHandler: authenticate };

  app.get('/api/google-places/nearby', { ...guarded, schema: { querystring: placesNearbyQuery, response: { 200: placesResults } } }, async (request) =>
    results(await source.nearby(request.query)),
  );

  app.get('/api/google-places/textsearch', { ...guarded, schema: { querystring: placesTextSearchQuery, response: { 200: placesResults } } }, async (request) =>
    results(await source.textSearch(request.query)),
  );

  app.get('/api/google-places/details', { ...guarded, schema: { querystring: placesDetailsQuery, response: { 200: placeDetails } } }, async (request) => {
    const place = await source.details(request.query.place_id);
    if (!place) throw notFound('Place not found');
    return { result: place, status: 'OK' as const };
  });

  app.get('/api/google-places/photo', { ...guarded, schema: { querystring: placesPhotoQuery } }, async (request, reply) => {
    const photo = await source.photo(request.query.photoreference, request.query.maxwidth);
    if (!photo) throw notFound('Photo not found');
    return reply.header('content-type', photo.contentType).header('cache-control', 'public, max-age=86400').send(Buffer.from(photo.body));
  });
}
