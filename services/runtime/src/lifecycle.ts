import type { Logger } from 'pino';
import type { z } from 'zod';
import { ConfigError, loadConfig, type BaseConfig } from './config';
import { startDraining, type ServiceApp } from './http/server';
import { describeRoute, registeredRoutes, ROUTES_LOG_MESSAGE } from './http/route-table';
import { createLogger } from './logger';
import { createMetrics, type ServiceMetrics } from './http/metrics';
import { exitWithParent } from './parent-watch';
import { tuneProcess } from './process-tuning';
import { assembleService } from './service/assemble';
import type { ServiceConnections, ServiceDefinition, ServiceParts } from './service/define';

export interface ServiceContext<C> {
  config: C;
  logger: Logger;
  metrics: ServiceMetrics;
}

export interface BuiltService {
  app: ServiceApp;
  /** Background work started once the HTTP server listens (outbox relay, consumers). */
  start?: () => Promise<void> | void;
  /** Released after HTTP has drained, in order: workers first, connections last. */
  closers: Array<{ name: string; close: () => Promise<unknown> }>;
}

/** What running a process needs of its config; services have all of BaseConfig, tools (the queue board) less. */
export type ServiceConfig = Pick<BaseConfig, 'LOG_LEVEL' | 'HOST' | 'SHUTDOWN_TIMEOUT_MS' | 'SHUTDOWN_DRAIN_MS'> & { PORT: number };

export type Closer = BuiltService['closers'][number];

/**
 * The main of every process: validate config, build, listen, and on SIGTERM
 * drain HTTP, stop background work, close connections, exit. A failure to
 * start exits non-zero with the reason, never half-running. Services run
 * through their definition (runService); workers and tools call this directly.
 */
export async function runProcess<S extends z.ZodType<ServiceConfig>>(options: {
  name: string;
  configSchema: S;
  build: (context: ServiceContext<z.infer<S>>) => Promise<BuiltService>;
}): Promise<void> {
  tuneProcess();
  let config: z.infer<S>;
  try {
    config = loadConfig(options.name, options.configSchema);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
  const logger = createLogger(options.name, config.LOG_LEVEL);
  const metrics = createMetrics(options.name);

  process.on('unhandledRejection', (reason) => {
    logger.fatal({ err: reason }, 'unhandled rejection');
    process.exit(1);
  });

  let built: BuiltService;
  try {
    built = await options.build({ config, logger, metrics });
  } catch (err) {
    logger.fatal({ err }, `${options.name} failed to start`);
    process.exit(1);
  }

  /** Listening, then the background work: a signal that comes meanwhile waits for it (its consumers must exist to be stopped). */
  let startup: Promise<void> = Promise.resolve();
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      logger.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    deadline.unref();
    try {
      await startup.catch(() => undefined);
      // Readiness goes 503 first and requests keep being served while the
      // gateways and the orchestrator take this instance out of rotation;
      // only then does the server stop accepting and finish what is in flight.
      startDraining(built.app);
      await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DRAIN_MS));
      await built.app.close();
      for (const closer of built.closers) {
        await closer.close().catch((err: unknown) => logger.error({ err, closer: closer.name }, 'close failed'));
      }
      logger.info('stopped');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  // Before listening: the orchestrator may stop an instance that is still starting (readiness passes
  // once it listens, while its consumers are still being created), and that too must drain and exit 0.
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  startup = (async () => {
    await built.app.listen({ port: config.PORT, host: config.HOST });
    // The route table Fastify registered, once, for operators and for the scans that hold it against the contracts.
    logger.info({ routes: registeredRoutes(built.app).map(describeRoute) }, ROUTES_LOG_MESSAGE);
    await built.start?.();
  })();
  try {
    await startup;
  } catch (err) {
    logger.fatal({ err }, `${options.name} failed to start`);
    process.exit(1);
  }
  exitWithParent();
}

/** Runs a service's definition in production: every consumer and worker, the relay unless the config says another replica publishes. */
export function runService<S extends z.ZodType<ServiceConfig>, K extends ServiceConnections, P extends ServiceParts>(definition: ServiceDefinition<S, K, P>): Promise<void> {
  return runProcess({
    name: definition.name,
    configSchema: definition.configSchema,
    async build({ config, logger, metrics }) {
      const assembled = await assembleService(definition, { config, logger, metrics });
      return { app: assembled.context.parts.app, start: async () => void (await assembled.start()), closers: assembled.closers };
    },
  });
}
