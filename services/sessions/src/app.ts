import { sessionsApi } from '@hoptrack/proto';
import { Counter } from 'prom-client';
import { audienceAuth, createServer, mountRoutes, tokenVerifierFor, FileSignature, Outbox, OutboxRelay, PeopleCache, VersionedCache, type Logger, type ServiceApp, type ServiceMetrics } from '@hoptrack/runtime';
import { buildCards, type Card } from './cards/card';
import { CardRenderer } from './cards/renderer';
import type { SessionsConfig } from './config';
import type { SessionsConnections } from './connections';
import { Interactions } from './domain/interactions';
import { Sessions } from './domain/sessions';
import { Feed } from './feed/feed';
import { BackfillAnnouncer } from './feed/backfill-announce';
import { timelinesFor, type Timelines } from './feed/timelines';
import { MediaClient } from './photos/media-client';
import { PhotoUrls } from './photos/photo-urls';
import { SessionPhotos } from './domain/session-photos';
import { sessionsHandlers } from './routes/handlers';

export interface SessionsDepsIn extends SessionsConnections {
  config: SessionsConfig;
  logger: Logger;
  metrics: ServiceMetrics;
  clock?: () => Date;
}

export interface SessionsApp {
  app: ServiceApp;
  relay: OutboxRelay;
  feed: Feed;
  timelines: Timelines;
  /** The card read model (its consumer drops cards on the changes' events). */
  cards: CardRenderer;
  /** The people table in Redis (the audience consumer keeps it). */
  people: PeopleCache;
  /** The cards themselves (Redis, and parsed in this process's memory). */
  cardStore: VersionedCache<Card>;
  /** The read model's half of a backfill's announcement (its consumer calls it after each graph commit). */
  backfills: BackfillAnnouncer;
}

export function buildSessionsApp(deps: SessionsDepsIn): SessionsApp {
  const { config, prisma, bus, redis, logger } = deps;
  const relay = new OutboxRelay({ db: deps.sql, bus, logger: logger.child({ component: 'outbox-relay' }), pollMs: config.OUTBOX_POLL_MS });
  const clock = deps.clock ?? (() => new Date());
  const timelines = timelinesFor(deps.timelineRedis, config);
  const photos = new PhotoUrls(new FileSignature(config.FILE_URL_SECRET, config.FILE_URL_TTL_SECONDS, clock));
  const people = new PeopleCache(redis, `${config.BUS_NAMESPACE}:sessions`, prisma);
  const cardStore = new VersionedCache<Card>({
    redis,
    prefix: `${config.BUS_NAMESPACE}:card`,
    ttlSeconds: config.CARD_TTL_SECONDS,
    memoryEntries: config.CARD_MEMORY_ENTRIES,
    load: (ids) => buildCards(prisma, ids),
  });
  const cards = new CardRenderer({ sql: deps.prepared, cards: cardStore, people, photos, logger });
  const outbox = new Outbox(config.BUS_NAMESPACE, clock);
  const onEventsCommitted = () => relay.poke();
  const sessions = new Sessions({ prisma, prepared: deps.prepared, outbox, onEventsCommitted, clock, timelines, logger, photos, cards });
  const feed = new Feed(prisma, timelines, config.TIMELINE_CAP, cards);
  const app = createServer({
    logger,
    metrics: deps.metrics,
    trustProxy: config.TRUST_PROXY,
  });
  const interactions = new Interactions({ prisma, outbox, onEventsCommitted, cards, people });
  const sessionPhotos = new SessionPhotos({ prisma, photos });
  const handlers = sessionsHandlers({ sessions, feed, media: new MediaClient(config.MEDIA_INTERNAL_URL), interactions, sessionPhotos, db: prisma });
  mountRoutes(app, sessionsApi, handlers, { authenticate: audienceAuth(tokenVerifierFor(config), prisma, people), db: prisma, clock });
  new Counter({
    name: 'sessions_feed_card_reads_total',
    help: 'Feed cards read, by where they came from: process memory (version checked), Redis, or Postgres (a miss)',
    labelNames: ['source'] as const,
    registers: [deps.metrics.registry],
    collect() {
      this.reset();
      this.inc({ source: 'memory' }, cardStore.stats.memoryHits);
      this.inc({ source: 'redis' }, cardStore.stats.redisHits);
      this.inc({ source: 'postgres' }, cardStore.stats.loads);
    },
  });
  const backfills = new BackfillAnnouncer({ prisma, redis, bus, namespace: config.BUS_NAMESPACE, logger: logger.child({ component: 'backfill-announcer' }) });
  return { app, relay, feed, timelines, cards, people, cardStore, backfills };
}
