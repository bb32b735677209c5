import { anyErased, createServer, defineService, Outbox, OutboxRelay, startConsumer } from '@hoptrack/runtime';
import { observeQueueWorker, queuePrefix, registerQueueMetrics } from '@hoptrack/runtime/queues';
import { Redis } from 'ioredis';
import { mediaConfigSchema, type MediaConfig } from '../../config';
import { database, openConnections } from '../../connections';
import { renderPhotoVersions } from '../../images/images';
import { sessionPhotoNames } from '../orphans/session-photos';
import { OrphanSweeper } from '../orphans/sweeper';
import { applyCpuLimits } from './cpu-limits';
import { processPhoto } from './process-photo';
import { createThumbnailQueue, createThumbnailWorker, enqueueThumbnail, type QueueSettings } from './queue';
import { RenderSlots } from './render-slots';

/** The thumbnail queue as the worker's config sets it up. */
function queueSettings(config: MediaConfig): QueueSettings {
  return {
    redisUrl: config.REDIS_URL,
    name: config.THUMBNAIL_QUEUE,
    prefix: queuePrefix(config.BUS_NAMESPACE),
    attempts: config.THUMBNAIL_ATTEMPTS,
    // Jobs at once: the render slots and the jobs held ready beside them (config.ts).
    concurrency: config.THUMBNAIL_CONCURRENCY * (1 + config.THUMBNAIL_PREFETCH),
    lockMs: config.THUMBNAIL_LOCK_MS,
    stalledIntervalMs: config.THUMBNAIL_STALLED_INTERVAL_MS,
  };
}

/**
 * The media worker: thumbnails, and the orphan sweep of the bucket
 * (../orphans/sweeper.ts). Its own process, scaled on its own. media.photo.stored.v1
 * (JetStream, durable) becomes a BullMQ job; jobs retry with backoff, and a job
 * whose worker died is taken up again once its lock lapses. It serves only
 * /healthz, /readyz and /metrics (queue depth included). What it reads and
 * publishes is its contract in proto (PROCESS_CONTRACTS['media-worker']).
 */
export const mediaWorkerService = defineService({
  name: 'media-worker',
  configSchema: mediaConfigSchema,
  database,
  async connect({ config, logger }) {
    // Before any image work: the worker shares its machine with the request path (config.ts says how).
    applyCpuLimits({ sharpThreads: config.THUMBNAIL_SHARP_THREADS, nice: config.THUMBNAIL_NICE }, logger);
    const media = await openConnections(config, logger, 'media-worker');
    const queue = createThumbnailQueue(queueSettings(config));
    // Only for readiness: BullMQ keeps connections of its own.
    const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2 });
    return {
      ...media,
      queue,
      redis,
      // Its renders read and write the object store, and its jobs live in Redis: both are its readiness.
      readiness: { ...media.readiness, redis: () => redis.ping() },
      // The queue closes with the connections, after the stored-photo consumer that adds to it has stopped.
      async close() {
        await queue.close();
        redis.disconnect();
        await media.close();
      },
    };
  },
  build({ config, logger, metrics, connections }) {
    registerQueueMetrics(metrics.registry, [connections.queue]);
    const relay = new OutboxRelay({ db: connections.sql, bus: connections.bus, logger: logger.child({ component: 'outbox-relay' }), pollMs: config.OUTBOX_POLL_MS });
    // Readiness follows from its connections (the database, Redis, the bus): assembleService adds it.
    const app = createServer({ logger, metrics });
    return { app, relay };
  },
  // The BullMQ worker takes jobs as soon as it exists (before the port opens; its events wait in the
  // outbox until the relay starts), and at shutdown it stops first, finishing the jobs it holds.
  workers({ config, logger, metrics, clock, connections, poke }) {
    const settings = queueSettings(config);
    const slots = new RenderSlots(config.THUMBNAIL_CONCURRENCY);
    const render = (original: Buffer) =>
      slots.run(() => {
        // What the slots hold when a render starts (the worker test reads it at debug level).
        logger.debug({ renders: slots.load }, 'render started');
        return renderPhotoVersions(original);
      });
    const deps = {
      prisma: connections.prisma,
      store: connections.store,
      outbox: new Outbox(config.BUS_NAMESPACE),
      onEventsCommitted: poke,
      delayMs: Number(process.env.THUMBNAIL_FAULT_DELAY_MS ?? 0),
      render,
    };
    const worker = createThumbnailWorker(settings, (photoId) => processPhoto({ ...deps, logger: logger.child({ photoId }) }, photoId), logger);
    observeQueueWorker(metrics.registry, worker, settings.name);
    const closers = [{ name: 'thumbnail worker', close: () => worker.close() }];
    if (config.ORPHAN_SWEEP_MS > 0) {
      const sweeper = new OrphanSweeper({
        store: connections.store,
        db: connections.prisma,
        logger: logger.child({ component: 'orphan-sweeper' }),
        registry: metrics.registry,
        clock,
        graceMs: config.ORPHAN_GRACE_MS,
        sessionPhotos: sessionPhotoNames(config.SESSIONS_INTERNAL_URL),
      });
      closers.push(sweeper.start(config.ORPHAN_SWEEP_MS));
    }
    return closers;
  },
  consumers: {
    storedPhotos: ({ config, connections, logger }) =>
      startConsumer({
        bus: connections.bus,
        stream: 'MEDIA',
        durable: config.THUMBNAIL_CONSUMER,
        logger,
        handlers: {
          'media.photo.stored.v1': async (event) => {
            // A photo of an erased person (stored before the deletion, delivered after): nothing to render.
            if (await anyErased(connections.prisma, [event.data.userId])) return;
            await enqueueThumbnail(connections.queue, event.data.photoId, config.THUMBNAIL_ATTEMPTS);
          },
        },
      }),
  },
});
