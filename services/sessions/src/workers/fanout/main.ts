import { existsSync } from 'node:fs';
import { createServer, instrumentBus, runService } from '@hoptrack/runtime';
import { registerQueueMetrics } from '@hoptrack/runtime/queues';
import { sessionsConfigSchema } from '../../config';
import { openConnections } from '../../connections';
import { startFanout, type RunningFanout } from './fanout-worker';

/**
 * The feed fan-out worker: its own process, scaled on its own. Session and
 * graph events (JetStream, durable) become BullMQ jobs that write the Redis
 * timelines; jobs retry with backoff and a job whose worker died runs again
 * once its lock lapses. Serves only /healthz, /readyz and /metrics (queue depth included).
 */
await runService({
  name: 'sessions-fanout',
  configSchema: sessionsConfigSchema,
  async build({ config, logger, metrics }) {
    const connections = await openConnections(config, logger, 'sessions-fanout');
    instrumentBus(connections.bus, metrics.registry);
    const app = createServer({
      logger,
      metrics,
      readiness: {
        postgres: () => connections.prisma.$queryRaw`SELECT 1`,
        nats: () => connections.bus.check(),
        redis: () => connections.redis.ping(),
      },
    });
    let fanout: RunningFanout | undefined;
    return {
      app,
      async start() {
        // FANOUT_FAULT_GATE_FILE (fault tests only): each batch stops after its first timeline write until
        // the file exists, so a test kills or stops the process at a known point inside a batch.
        const gateFile = process.env.FANOUT_FAULT_GATE_FILE;
        const faultGate = gateFile
          ? async () => {
              logger.warn({ gateFile }, 'fault gate: batch half written, waiting for the gate file');
              while (!existsSync(gateFile)) await new Promise((r) => setTimeout(r, 50));
            }
          : undefined;
        fanout = await startFanout({ config, connections, logger, registry: metrics.registry, faultGate });
        registerQueueMetrics(metrics.registry, [fanout.queue]);
      },
      closers: [
        { name: 'fan-out', close: async () => fanout?.stop() },
        { name: 'connections', close: () => connections.close() },
      ],
    };
  },
});
