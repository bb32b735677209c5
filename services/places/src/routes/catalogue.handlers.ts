import type { placesApi } from '@hoptrack/proto';
import type { Handlers } from '@hoptrack/runtime';
import type { Catalogue } from '../domain/catalogue';

/** /api/bars and /api/beers (spec section 7, 'Bars and beers'). */
export function catalogueHandlers(
  catalogue: Catalogue,
): Pick<Handlers<typeof placesApi>, 'bars' | 'searchBars' | 'nearbyBars' | 'bar' | 'beers' | 'searchBeers' | 'beer'> {
  return {
    bars: async (request) => catalogue.bars(request.query),
    searchBars: async (request) => {
      const { q, lat, lng } = request.query;
      return catalogue.searchBars(q, request.query, lat !== undefined && lng !== undefined ? { lat, lng } : undefined);
    },
    nearbyBars: async (request) => catalogue.nearby(request.query),
    bar: async (request) => catalogue.bar(request.params.id, request.auth.userId),
    beers: async (request) => catalogue.beers(request.query.style || undefined, request.query),
    searchBeers: async (request) => catalogue.searchBeers(request.query.q, request.query.style || undefined, request.query),
    beer: async (request) => catalogue.beer(request.params.id),
  };
}
