import { existsSync } from 'node:fs';
import { createServer, defineService, type Logger } from '@hoptrack/runtime';
import { registerQueueMetrics } from '@hoptrack/runtime/queues';
import { sessionsConfigSchema } from '../../config';
import { database, openConnections } from '../../connections';
import { fanoutDeps, startFanoutConsumer, startFanoutWorker } from './fanout-worker';

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
 * graph events (JetStream, durable) write the Redis timelines: the consumer
 * runs an event's first batch itself and a bigger audience's next batches
 * become BullMQ jobs; an event whose process died is delivered again once
 * its ack wait lapses, a job once its lock lapses. Serves only /healthz, /readyz and /metrics (queue
 * depth included). What it reads is its contract in proto
 * (PROCESS_CONTRACTS['sessions-fanout']); the queue is one of its connections.
 */
export const fanoutService = defineService({
  name: 'sessions-fanout',
  configSchema: sessionsConfigSchema,
  database,
  connect: ({ config, logger }) => openConnections(config, logger, 'sessions-fanout'),
  build({ config, logger, metrics, connections }) {
    registerQueueMetrics(metrics.registry, [connections.fanoutQueue]);
    // Readiness follows from its connections (the database, Redis, the bus): assembleService adds it.
    const app = createServer({ logger, metrics });
    // One set of fan-out dependencies for the consumers and the worker (one lag histogram per registry).
    const fanout = fanoutDeps({ config, connections, logger, registry: metrics.registry, faultGate: faultGateFromEnv(logger) });
    return { app, fanout };
  },
  // The BullMQ worker takes jobs as soon as it exists (those already queued; the consumers that
  // add more start once the port is open), and at shutdown it stops first, finishing the batch it holds.
  workers({ config, logger, metrics, connections, parts }) {
    const worker = startFanoutWorker({ config, connections, logger, registry: metrics.registry, deps: parts.fanout });
    return [{ name: 'fan-out worker', close: () => worker.close() }];
  },
  consumers: {
    sessions: ({ config, connections, logger, parts }) => startFanoutConsumer({ config, connections, logger, deps: parts.fanout, stream: 'SESSIONS' }),
    graph: ({ config, connections, logger, parts }) => startFanoutConsumer({ config, connections, logger, deps: parts.fanout, stream: 'SOCIAL' }),
  },
});
