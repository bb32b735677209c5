import { anyErased, createServer, instrumentBus, Outbox, OutboxRelay, runService, startConsumer, type RunningConsumer } from '@hoptrack/runtime';
import { Redis } from 'ioredis';
import { mediaConfigSchema } from '../../config';
import { openConnections } from '../../connections';
import { applyCpuLimits } from './cpu-limits';
import { renderPhotoVersions } from '../../images/images';
import { processPhoto } from './process-photo';
import { RenderSlots } from './render-slots';
import { observeQueueWorker, queuePrefix, registerQueueMetrics } from '@hoptrack/runtime/queues';
import { createThumbnailQueue, createThumbnailWorker, enqueueThumbnail, type QueueSettings } from './queue';

/**
 * The thumbnail worker: its own process, scaled on its own. media.photo.stored.v1
 * (JetStream, durable) becomes a BullMQ job; jobs retry with backoff, and a job
 * whose worker died is taken up again once its lock lapses. It serves only
 * /healthz, /readyz and /metrics (queue depth included).
 */
await runService({
  name: 'media-worker',
  configSchema: mediaConfigSchema,
  async build({ config, logger, metrics }) {
    // Before any image work: the worker shares its machine with the request path (config.ts says how).
    applyCpuLimits({ sharpThreads: config.THUMBNAIL_SHARP_THREADS, nice: config.THUMBNAIL_NICE }, logger);
    const connections = await openConnections(config, logger, 'media-worker');
    const settings: QueueSettings = {
      redisUrl: config.REDIS_URL,
      name: config.THUMBNAIL_QUEUE,
      prefix: queuePrefix(config.BUS_NAMESPACE),
      attempts: config.THUMBNAIL_ATTEMPTS,
      // Jobs at once: the render slots and the jobs held ready beside them (config.ts).
      concurrency: config.THUMBNAIL_CONCURRENCY * (1 + config.THUMBNAIL_PREFETCH),
      lockMs: config.THUMBNAIL_LOCK_MS,
      stalledIntervalMs: config.THUMBNAIL_STALLED_INTERVAL_MS,
    };
    const queue = createThumbnailQueue(settings);
    registerQueueMetrics(metrics.registry, [queue]);
    instrumentBus(connections.bus, metrics.registry);
    const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2 });
    const relay = new OutboxRelay({ db: connections.prisma, bus: connections.bus, logger: logger.child({ component: 'outbox-relay' }), pollMs: config.OUTBOX_POLL_MS });
    const delayMs = Number(process.env.THUMBNAIL_FAULT_DELAY_MS ?? 0);
    relay.registerMetrics(metrics.registry);
    const slots = new RenderSlots(config.THUMBNAIL_CONCURRENCY);
    const render = (original: Buffer) =>
      slots.run(() => {
        // What the slots hold when a render starts (the worker test reads it at debug level).
        logger.debug({ renders: slots.load }, 'render started');
        return renderPhotoVersions(original);
      });
    const deps = { ...connections, outbox: new Outbox(config.BUS_NAMESPACE), onEventsCommitted: () => relay.poke(), logger, delayMs, render };
    const app = createServer({
      logger,
      metrics,
      readiness: { postgres: () => connections.prisma.$queryRaw`SELECT 1`, nats: () => connections.bus.check(), redis: () => redis.ping() },
    });
    let consumer: RunningConsumer | undefined;
    let worker: ReturnType<typeof createThumbnailWorker> | undefined;
    return {
      app,
      async start() {
        relay.start();
        worker = createThumbnailWorker(settings, (photoId) => processPhoto({ ...deps, logger: logger.child({ photoId }) }, photoId), logger);
        observeQueueWorker(metrics.registry, worker, settings.name);
        consumer = await startConsumer({
          bus: connections.bus,
          stream: 'MEDIA',
          durable: config.THUMBNAIL_CONSUMER,
          logger,
          handlers: {
            'media.photo.stored.v1': async (event) => {
              // A photo of an erased person (stored before the deletion, delivered after): nothing to render.
              if (await anyErased(connections.prisma, [event.data.userId])) return;
              await enqueueThumbnail(queue, event.data.photoId, settings.attempts);
            },
          },
        });
      },
      closers: [
        { name: 'stored-photo consumer', close: async () => consumer?.stop() },
        { name: 'thumbnail worker', close: async () => worker?.close() },
        { name: 'queue', close: () => queue.close() },
        { name: 'outbox relay', close: () => relay.stop() },
        { name: 'connections', close: async () => (redis.disconnect(), connections.close()) },
      ],
    };
  },
});
