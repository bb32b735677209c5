export {
  baseConfigSchema,
  serviceConfigSchema,
  loadConfig,
  ConfigError,
  DEV_FILE_URL_SECRET,
  fileUrlSecretSchema,
  DEV_UNSUBSCRIBE_SECRET,
  unsubscribeSecretSchema,
  tokenVerifierFor,
  directDatabaseUrl,
  type BaseConfig,
} from './config';
export { createLogger, type Logger } from './logger';
export { createServer, type ServiceApp, type ReadinessCheck, type ServerOptions } from './http/server';
export { mountRoutes, ContractMismatchError, STAFF_ONLY, type Handlers, type Page, type RouteHandler, type ContractRequest, type ContractReply, type MountOptions } from './http/routes';
export { registeredRoutes, describeRoute, ROUTES_LOG_MESSAGE, type RegisteredRoute } from './http/route-table';
export { createMetrics, type ServiceMetrics } from './http/metrics';
export * from './http/errors';
export { encodeTimeCursor, decodeTimeCursor, type TimeCursor } from './http/cursor';
export { isDependencyUnavailable } from './http/unavailable';
export { FixedWindowLimiter, type LimiterRedis } from './http/limiter';
export { ValidationError, describeIssue, parseInput, refusedText, type ZodTypeProvider } from './http/validation';
export { REQUEST_ID_HEADER } from './http/request-id';
export { API_SECURITY_HEADERS, HSTS } from './http/security-headers';
export {
  createTokenService,
  createTokenVerifier,
  generateSigningKey,
  publicJwk,
  parseDuration,
  signingKeySchema,
  DEV_JWKS,
  DEV_SIGNING_KEY,
  InvalidTokenError,
  type SigningKey,
  type TokenClaims,
  type TokenService,
  type TokenVerifier,
} from './auth/tokens';
export { bearerAuth, type Authenticate, type CurrentCheck, type Identity } from './auth/authenticate';
export { connectBus, ensureStreams, deleteStreams, type Bus, type BusOptions } from './bus/connection';
export { instrumentBus, type BusMetrics } from './bus/metrics';
export { Outbox, OutboxRelay, type OutboxValues, type RelayOptions } from './bus/outbox';
export { peopleNamed } from './bus/people-named';
export { publishNow } from './bus/publish-now';
export { Poller } from './bus/poller';
export { ReadModelBarrier, type BarrierOptions } from './bus/barrier';
export { listDeadLetters, replayDeadLetter, discardDeadLetter, DEAD_LETTER_HEADERS, type DeadLetter } from './bus/dead-letters';
export { startConsumer, sqlInbox, type EventHandlers, type HandlerContext, type Inbox, type InboxGuard, type RunningConsumer } from './bus/consumer';
export { findGap, sqlPositions, trackPosition, type ConsumerGap, type PositionStore } from './bus/positions';
export { startReadModels, startEffectConsumers, type ReadModelHandler, type ReadModelHandlers, type Effect, type Effects, type EffectConsumersOptions } from './bus/read-models';
export { LiveHub, type LiveHubOptions, type StreamObserver } from './live/hub';
export { startLiveFeed, type LiveFeedOptions, type LiveReaction, type LiveReactions, type LiveSubject, type RunningLiveFeed } from './live/feed';
export * from './audience/index';
export { busMigrationDirs, OUTBOX_TABLE_SQL, INBOX_TABLE_SQL } from './bus/tables';
export type { SqlClient, TransactionalSqlClient } from './db/sql';
export { compile, executeSql, identifier, joinSql, queryRows, Sql, sql, uuid } from './db/fragment';
export { ensureDatabase } from './db/database';
export { pgSqlClient, sharedPool, type SharedPool } from './db/pg-sql-client';
export { migrate, readMigrations } from './db/migrate';
export { PLATFORM_PARTS, platformMigrationDirs, platformTables } from './db/platform-parts';
export { BOUNDED_STORES, pruneStores, startPruner, type Pruner } from './db/retention';
export { forgetAnswersNaming, idempotency, IDEMPOTENCY_HEADER, IDEMPOTENCY_TTL_MS, REPLAYED_HEADER, type Idempotency, type IdempotencyOptions } from './http/idempotency';
export { prepareDatabase } from './db/prepare';
export { escapeLike } from './db/like';
export { VersionedCache, type VersionedCacheOptions } from './cache/versioned-cache';
export { newerSnapshot, upsertNewerSnapshot, type SnapshotRow } from './db/snapshot';
export { FileSignature, FILES_PREFIX } from './files/file-signature';
export { fileKeyOf, filePath, sessionPhotoKey, sessionPhotoOwnerOf } from './files/file-keys';
export { avatarKey, avatarUrl, UploadTokens, UPLOADS_PREFIX, type UploadClaims } from './files/upload-tokens';
export { packageDir } from './package-dir';
export { withBus, withPooledBus, type DatabaseAndBus, type PooledDatabaseAndBus } from './connections';
export { runProcess, runService, type BuiltService, type Closer, type ServiceContext, type ServiceConfig } from './lifecycle';
export { defineService, type BuildContext, type ConnectContext, type DatabasePart, type ConsumerStarter, type RunContext, type ServiceConnections, type ServiceDefinition, type ServiceParts } from './service/define';
export { assembleService, checkSubscriptions, migrateDatabase, type AssembleOptions, type AssembledService } from './service/assemble';
export { scrubDeadLetters } from './bus/scrub';
export { purgeQueued, queuePurges, settledEverywhere, StreamPurger, subjectMatches, type PurgeResult, type QueuedMessage } from './bus/purge';
export { uuidFromBytes, uuidsInBytes, uuidToBytes } from './uuid-bytes';
