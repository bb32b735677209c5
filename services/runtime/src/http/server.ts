import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { HttpError, statusText } from './errors';
import { isDependencyUnavailable } from './unavailable';
import type { ServiceMetrics } from './metrics';
import { REQUEST_ID_HEADER, requestIdFrom } from './request-id';
import { addSecurityHeaders } from './security-headers';
import { ValidationError, zodSerializerCompiler, zodValidatorCompiler, type ZodTypeProvider } from './validation';
import { Readiness, type ReadinessCheck } from './readiness';
import { assertContracted, trackRoutes } from './route-table';

export type { ReadinessCheck } from './readiness';

export interface ServerOptions {
  logger: Logger;
  metrics: ServiceMetrics;
  readiness?: Record<string, ReadinessCheck>;
  /** Fastify's trustProxy: whose X-Forwarded-For is believed (runtime config TRUST_PROXY). */
  trustProxy?: boolean | string[];
  bodyLimit?: number;
  /**
   * Every route of a service is mounted from its contracts (mountRoutes); a
   * route registered any other way stops the server at ready. Only a process
   * that is no API (the queue board, behind its own basic auth) opts out, and
   * says why.
   */
  uncontracted?: { reason: string };
}

export type ServiceApp = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

const READY_TIMEOUT_MS = 2000;
/**
 * How old a dependency check may be before /readyz starts the next one
 * (readiness.ts): a lost dependency shows within this and READY_TIMEOUT_MS.
 * 3 s, not 1: every check is a statement in Postgres and a round trip to
 * Redis, NATS or S3, in every process, with nobody using the stack (issue 41).
 */
const READY_FRESH_MS = 3000;

/** Apps shutting down: their /readyz answers 503 while they finish serving. */
const draining = new WeakSet<object>();
/** Each app's readiness, so checks can be added after it was created. */
const readinessOf = new WeakMap<object, Readiness>();

/**
 * Adds dependencies to what /readyz checks: a service definition adds those
 * of its connections (assembleService), so an app does not list them again.
 */
export function addReadinessChecks(app: ServiceApp, checks: Record<string, ReadinessCheck>): void {
  const readiness = readinessOf.get(app);
  if (!readiness) throw new Error('addReadinessChecks: not an app made by createServer');
  readiness.add(checks);
}

/** Called at SIGTERM, before the drain wait: see runService. */
export function startDraining(app: ServiceApp): void {
  draining.add(app);
}

/**
 * The Fastify app every service starts from: request ids, zod validation,
 * the uniform error body, JSON 404, health, readiness and metrics.
 * It does not listen; `runService` does, so tests use `app.inject`.
 */
export function createServer(options: ServerOptions): ServiceApp {
  const loggerInstance: FastifyBaseLogger = options.logger;
  const app = Fastify({
    loggerInstance,
    genReqId: requestIdFrom,
    // Fastify writes two lines per request ("incoming request", "request
    // completed"); the onResponse hook below writes one with both halves
    // (issue 41: log lines are a fixed cost of every request in every process).
    disableRequestLogging: true,
    trustProxy: options.trustProxy ?? false,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    // Path parameters carry signed tokens (upload URLs); Fastify's default of 100 characters is too short.
    routerOptions: { maxParamLength: 512 },
  }).withTypeProvider<ZodTypeProvider>();

  const routes = trackRoutes(app);
  if (!options.uncontracted) app.addHook('onReady', async () => assertContracted(routes));

  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(zodSerializerCompiler);

  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    addSecurityHeaders(request, reply);
  });

  app.addHook('onResponse', async (request, reply) => {
    options.metrics.httpDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    // The route's log level applies (probes and scrapes log at warn: nothing here).
    request.log.info(
      {
        // The logger's req serializer picks method, url (redacted), host and the client address.
        req: request,
        res: { statusCode: reply.statusCode },
        responseTime: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request completed',
    );
  });

  app.setErrorHandler((error: FastifyError | HttpError | ValidationError, request, reply) => {
    if (!(error instanceof HttpError) && isDependencyUnavailable(error)) {
      // Postgres, Redis or NATS is down: say so (the client may retry), do not blame the request or the code.
      request.log.warn({ err: error, method: request.method, url: request.url }, 'dependency unavailable');
      return reply.status(503).header('retry-after', '5').type('application/json').send(
        JSON.stringify({ statusCode: 503, error: statusText(503), message: 'Service temporarily unavailable, please retry shortly', requestId: request.id }),
      );
    }
    if (error instanceof HttpError && error.statusCode === 503) {
      // A service saying "not now" on purpose (a store of its own is down): its words reach the person, with when to try again.
      request.log.warn({ err: error, method: request.method, url: request.url }, 'dependency unavailable');
      return reply.status(503).header('retry-after', '5').type('application/json').send(
        JSON.stringify({ statusCode: 503, error: statusText(503), message: error.message, field: error.field, requestId: request.id }),
      );
    }
    const statusCode = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    const field = error instanceof HttpError || error instanceof ValidationError ? error.field : undefined;
    if (statusCode >= 500) {
      request.log.error({ err: error, method: request.method, url: request.url }, 'request failed');
    } else {
      request.log.info({ statusCode, reason: error.message, field }, 'request rejected');
    }
    const message =
      statusCode >= 500
        ? 'Internal Server Error'
        : 'code' in error && error.code === 'FST_ERR_CTP_INVALID_JSON_BODY'
          ? 'Request body is not valid JSON'
          : error.message;
    if (error instanceof HttpError && error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
    return reply.status(statusCode).type('application/json').send(
      JSON.stringify({ statusCode, error: statusText(statusCode), message, field, requestId: request.id }),
    );
  });

  app.setNotFoundHandler((request, reply) => {
    return reply.status(404).type('application/json').send(
      JSON.stringify({
        statusCode: 404,
        error: 'Not Found',
        message: `Route ${request.method} ${request.url.split('?')[0]} not found`,
        requestId: request.id,
      }),
    );
  });

  const own = { logLevel: 'warn', config: { runtimeRoute: true } } as const;
  app.get('/healthz', own, async () => ({ status: 'ok' }));

  const readiness = new Readiness({ ...options.readiness }, { timeoutMs: READY_TIMEOUT_MS, freshMs: READY_FRESH_MS, logger: options.logger });
  readinessOf.set(app, readiness);
  app.get('/readyz', own, async (_request, reply) => {
    if (draining.has(app)) return reply.status(503).send({ status: 'draining', checks: {} });
    const results = await readiness.report();
    const ready = results.every(([, state]) => state === 'ok');
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks: Object.fromEntries(results) });
  });

  app.get('/metrics', own, async (_request, reply) => {
    return reply.type(options.metrics.registry.contentType).send(await options.metrics.registry.metrics());
  });

  return app;
}
