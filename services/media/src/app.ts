import { mediaApi } from '@hoptrack/proto';
import {
  audienceAuth,
  createServer,
  mountRoutes,
  UploadTokens,
  tokenVerifierFor,
  Outbox,
  OutboxRelay,
  type Logger,
  type ServiceApp,
  type ServiceMetrics,
} from '@hoptrack/runtime';
import type { MediaConfig } from './config';
import type { MediaConnections } from './connections';
import { Albums } from './domain/albums';
import { FileUrls } from './domain/file-urls';
import { canSeeMediaOf } from './domain/visibility';
import { albumsHandlers } from './routes/albums.handlers';
import { filesHandlers } from './routes/files.handlers';
import { internalHandlers } from './routes/internal.handlers';
import { profilePictureHandlers } from './routes/profile-picture.handlers';

export interface MediaDeps extends Omit<MediaConnections, 'close'> {
  config: MediaConfig;
  logger: Logger;
  metrics: ServiceMetrics;
  clock?: () => Date;
}

export interface MediaApp {
  app: ServiceApp;
  albums: Albums;
  uploads: UploadTokens;
  urls: FileUrls;
  relay: OutboxRelay;
}

export async function buildMediaApp(deps: MediaDeps): Promise<MediaApp> {
  const { config, logger, store, prisma, bus } = deps;
  const clock = deps.clock ?? (() => new Date());
  const uploads = new UploadTokens(config.FILE_URL_SECRET, clock);
  const urls = new FileUrls(config.FILE_URL_SECRET, config.FILE_URL_TTL_SECONDS, clock);
  const relay = new OutboxRelay({ db: deps.sql, bus, logger: logger.child({ component: 'outbox-relay' }), pollMs: config.OUTBOX_POLL_MS });
  const albums = new Albums({ prisma, store, urls, outbox: new Outbox(config.BUS_NAMESPACE, clock), onEventsCommitted: () => relay.poke(), logger });
  const authenticate = audienceAuth(tokenVerifierFor(config, clock), prisma);
  const app = createServer({
    logger,
    metrics: deps.metrics,
    trustProxy: config.TRUST_PROXY,
  });
  // An object-store outage is a StorageUnavailable (an HttpError of 503): the runtime's handler answers it.
  mountRoutes(
    app,
    mediaApi,
    {
      ...profilePictureHandlers({ store, prisma, uploads, uploadTtlSeconds: config.UPLOAD_URL_TTL_SECONDS, urls }),
      ...albumsHandlers(albums),
      ...filesHandlers(store, urls, (viewerId, ownerId) => canSeeMediaOf(prisma, viewerId, ownerId)),
      ...internalHandlers(store, urls, prisma),
    },
    { authenticate, db: prisma, clock },
  );
  return { app, albums, uploads, urls, relay };
}
