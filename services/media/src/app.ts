import { bearerAuth, createServer, createTokenService, type Logger, type ServiceApp, type ServiceMetrics } from '@hoptrack/runtime';
import type { MediaConfig } from './config';
import { filesRoutes } from './routes/files.routes';
import { profilePictureRoutes } from './routes/profile-picture.routes';
import { ObjectStore } from './storage/object-store';
import { UploadTokens } from './uploads/upload-tokens';

export interface MediaDeps {
  config: MediaConfig;
  logger: Logger;
  metrics: ServiceMetrics;
  store: ObjectStore;
  clock?: () => Date;
}

export interface MediaApp {
  app: ServiceApp;
  uploads: UploadTokens;
}

export function createObjectStore(config: MediaConfig): ObjectStore {
  return new ObjectStore(
    config.S3_ENDPOINT,
    { accessKey: config.S3_ACCESS_KEY, secretKey: config.S3_SECRET_KEY, region: config.S3_REGION },
    config.S3_BUCKET,
  );
}

export async function buildMediaApp(deps: MediaDeps): Promise<MediaApp> {
  const { config, logger, store } = deps;
  const clock = deps.clock ?? (() => new Date());
  const uploads = new UploadTokens(config.JWT_SECRET, config.UPLOAD_URL_TTL_SECONDS, clock);
  const authenticate = bearerAuth(createTokenService({ secret: config.JWT_SECRET, clock }));
  const app = createServer({ logger, metrics: deps.metrics, trustProxy: config.TRUST_PROXY, readiness: { s3: () => store.check() } });
  profilePictureRoutes(app, { store, uploads, authenticate });
  filesRoutes(app, store);
  return { app, uploads };
}
