import { bar, barDetail, barSearchQuery, barsQuery, beer, beerSearchQuery, beersQuery, idParams, nearbyQuery } from '@hoptrack/proto';
import { authOf, type Authenticate, type ServiceApp } from '@hoptrack/runtime';
import { z } from 'zod';
import type { Catalogue } from '../domain/catalogue';

/** /api/bars and /api/beers (spec section 7, 'Bars and beers'). */
export function catalogueRoutes(app: ServiceApp, catalogue: Catalogue, authenticate: Authenticate): void {
  const guarded = { preHandler: authenticate };
  const bars = { 200: z.array(bar) };
  const beers = { 200: z.array(beer) };

  app.get('/api/bars', { ...guarded, schema: { querystring: barsQuery, response: bars } }, async (request) => catalogue.bars(request.query));
  app.get('/api/bars/search', { ...guarded, schema: { querystring: barSearchQuery, response: bars } }, async (request) =>
    catalogue.searchBars(request.query.q, request.query),
  );
  app.get('/api/bars/nearby', { ...guarded, schema: { querystring: nearbyQuery, response: bars } }, async (request) =>
    catalogue.nearby(request.query),
  );
  app.get('/api/bars/:id', { ...guarded, schema: { params: idParams, response: { 200: barDetail } } }, async (request) =>
    catalogue.bar(request.params.id, authOf(request).userId),
  );

  app.get('/api/beers', { ...guarded, schema: { querystring: beersQuery, response: beers } }, async (request) =>
    catalogue.beers(request.query.style || undefined, request.query),
  );
  app.get('/api/beers/search', { ...guarded, schema: { querystring: beerSearchQuery, response: beers } }, async (request) =>
    catalogue.searchBeers(request.query.q, request.query.style || undefined, request.query),
  );
  app.get('/api/beers/:id', { ...guarded, schema: { params: idParams, response: { 200: beer } } }, async (request) =>
    catalogue.beer(request.params.id),
  );
}
