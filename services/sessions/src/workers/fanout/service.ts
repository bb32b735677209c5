import { existsSync } from 'node:fs';
import { createServer, defineService, type Logger } from '@hoptrack/runtime';
import { registerQueueMetrics } from '@hoptrack/runtime/queues';
import { sessionsConfigSchema } from '../../config';
import { database, openConnections } from '../../connections';
import { startFanoutConsumer, startFanoutWorker } from './fanout-worker';

/**
 * FANOUT_FAULT_GATE_FILE (fault tests only): each batch stops after its first timeline write until
 * the file exists, so a test kills or stops the process at a known point inside a batch.
 */
function faultGateFromEnv(logger: Logger): (() => Promise<void>) | undefined {
  const gateFile = process.env.FANOUT_FAULT_GATE_FILE;
  if (!gateFile) return undefined;
  return async () => {
    logger.warn({ gateFile }, 'fault gate: batch half written, waiting for the gate file');
    while (!existsSync(gateFile)) await new Promise((r) => setTimeout(r, 50));
  };
}

/**
 * The feed fan-out worker: its own process, scaled on its own. Session and
 * graph events (JetStream, durable) become BullMQ jobs that write the Redis
 * timelines; jobs retry with backoff and a job whose worker died runs again
 * once its lock lapses. Serves only /healthz, /readyz and /metrics (queue
 * depth included). What it reads is its contract in proto
 * (PROCESS_CONTRACTS['sessions-fanout']); the queue is one of its connections.
 */
export const fanoutService = defineService({
  name: 'sessions-fanout',
  configSchema: sessionsConfigSchema,
  database,
  connect: ({ config, logger }) => openConnections(config, logger, 'sessions-fanout'),
  build({ logger, metrics, connections }) {
    registerQueueMetrics(metrics.registry, [connections.fanoutQueue]);
    // Readiness follows from its connections (the database, Redis, the bus): assembleService adds it.
    const app = createServer({ logger, metrics });
    return { app };
  },
  // The BullMQ worker takes jobs as soon as it exists (those already queued; the consumers that
  // add more start once the port is open), and at shutdown it stops first, finishing the batch it holds.
  workers({ config, logger, metrics, connections }) {
    const worker = startFanoutWorker({ config, connections, logger, registry: metrics.registry, faultGate: faultGateFromEnv(logger) });
    return [{ name: 'fan-out worker', close: () => worker.close() }];
  },
  consumers: {
    sessions: ({ config, connections, logger }) => startFanoutConsumer({ config, connections, logger, stream: 'SESSIONS' }),
    graph: ({ config, connections, logger }) => startFanoutConsumer({ config, connections, logger, stream: 'SOCIAL' }),
  },
});
