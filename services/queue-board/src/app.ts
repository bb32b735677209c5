import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { createServer, type Logger, type ServiceApp, type ServiceMetrics } from '@hoptrack/runtime';
import { bullConnection, queuePrefix } from '@hoptrack/runtime/queues';
import { Queue } from 'bullmq';
import { basicAuth } from './basic-auth';
import type { BoardConfig } from './config';

export const BOARD_PATH = '/queues';

type BoardServerAdapter = Parameters<typeof createBullBoard>[0]['serverAdapter'];

export interface BoardApp {
  app: ServiceApp;
  queues: Queue[];
  close(): Promise<void>;
}

/**
 * Bull Board on the deployment's queues: operators see waiting, active,
 * failed jobs with their data and errors, and retry or remove them. Health,
 * readiness and metrics stay open (probes, Prometheus); the board needs the
 * operator's credentials. It is never routed through the public gateway.
 */
export async function buildBoardApp(deps: { config: BoardConfig; logger: Logger; metrics: ServiceMetrics }): Promise<BoardApp> {
  const { config } = deps;
  const queues = config.QUEUE_BOARD_QUEUES.map(
    (name) => new Queue(name, { connection: bullConnection(config.REDIS_URL), prefix: queuePrefix(config.BUS_NAMESPACE) }),
  );
  const first = queues[0];
  const app = createServer({
    logger: deps.logger,
    metrics: deps.metrics,
    // A Redis round trip through the queue's own connection.
    readiness: first ? { redis: () => first.getJobCounts('waiting') } : {},
    uncontracted: { reason: 'Bull Board is an operator tool behind its own basic auth, never routed by the gateway: its routes are the library\'s, not API contracts' },
  });
  const serverAdapter = new FastifyAdapter();
  // npm nests a second copy of @bull-board/api (same version) under the adapter: its
  // classes are the same at run time, but TypeScript sees two declarations.
  createBullBoard({ queues: queues.map((q) => new BullMQAdapter(q)), serverAdapter: serverAdapter as unknown as BoardServerAdapter });
  serverAdapter.setBasePath(BOARD_PATH);
  const guard = basicAuth(config.QUEUE_BOARD_USER, config.QUEUE_BOARD_PASSWORD);
  await app.register(
    async (board) => {
      board.addHook('onRequest', guard);
      await board.register(serverAdapter.registerPlugin());
    },
    { prefix: BOARD_PATH },
  );
  return {
    app,
    queues,
    async close() {
      await Promise.all(queues.map((q) => q.close()));
    },
  };
}
