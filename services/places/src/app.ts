import { placesApi } from '@hoptrack/proto';
import {
  audienceAuth,
  createServer,
  mountRoutes,
  Outbox,
  OutboxRelay,
  tokenVerifierFor,
  type Bus,
  type Logger,
  type ServiceApp,
  type ServiceMetrics,
  type TransactionalSqlClient,
} from '@hoptrack/runtime';
import type { PlacesConfig } from './config';
import type { PrismaClient } from './db';
import { Catalogue } from './domain/catalogue';
import { Reviews } from './domain/reviews';
import { GooglePlaces } from './places-proxy/google-places';
import { LocalPlaces } from './places-proxy/local-places';
import { catalogueHandlers } from './routes/catalogue.handlers';
import { placesProxyHandlers } from './routes/places-proxy.handlers';
import { reviewsHandlers } from './routes/reviews.handlers';

export interface PlacesDeps {
  config: PlacesConfig;
  logger: Logger;
  metrics: ServiceMetrics;
  prisma: PrismaClient;
  /** Plain SQL over Prisma's pool: the outbox relay. */
  sql: TransactionalSqlClient;
  /** Feeds the read models and carries the review events; /readyz reports it since reviews go stale without it. */
  bus: Bus;
}

export interface PlacesApp {
  app: ServiceApp;
  catalogue: Catalogue;
  /** Publishes the review events; started and stopped with the process (server.ts). */
  relay: OutboxRelay;
}

export function buildPlacesApp(deps: PlacesDeps): PlacesApp {
  const { config, prisma } = deps;
  const relay = new OutboxRelay({ db: deps.sql, bus: deps.bus, logger: deps.logger.child({ component: 'outbox-relay' }), pollMs: config.OUTBOX_POLL_MS });
  const reviews = new Reviews({ prisma, outbox: new Outbox(config.BUS_NAMESPACE), onEventsCommitted: () => relay.poke() });
  const catalogue = new Catalogue(prisma, reviews);
  const app = createServer({
    logger: deps.logger,
    metrics: deps.metrics,
    trustProxy: config.TRUST_PROXY,
  });
  const places = config.GOOGLE_PLACES_API_KEY ? new GooglePlaces(config.GOOGLE_PLACES_API_KEY) : new LocalPlaces(catalogue);
  mountRoutes(
    app,
    placesApi,
    { ...catalogueHandlers(catalogue), ...reviewsHandlers(reviews), ...placesProxyHandlers(places) },
    { authenticate: audienceAuth(tokenVerifierFor(config), prisma), db: prisma },
  );
  return { app, catalogue, relay };
}
