import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { redactUrl } from '@hoptrack/runtime/logger';
import { createMetrics } from '@hoptrack/runtime/metrics';
import { pathOf, sendJsonError } from './errors';
import { logger } from './logger';
import { requestIdOf } from './request-id';
import type { GatewayApp, GatewayRequest } from './types';

/** The services' metrics (own registry, same histogram), so dashboards compare hop by hop. */
const { registry, httpDuration } = createMetrics('gateway');
export { registry };

/** Routes the gateway answers itself (not pipelines) name themselves here. */
const routeLabels = new WeakMap<IncomingMessage, string>();
const QUIET_ROUTES = new Set(['healthz', 'readyz', 'metrics']);

export function labelRoute(req: IncomingMessage, route: string): void {
  routeLabels.set(req, route);
}

/**
 * The metrics label: the apiEndpoint name for /api pipelines (auth,
 * unknownApi, ...), the gateway route's own name otherwise. Never the raw
 * path, which would make one time series per user id.
 */
function routeOf(req: GatewayRequest): string {
  return routeLabels.get(req) ?? req.egContext?.apiEndpoint?.apiEndpointName ?? 'unmatched';
}

/**
 * Runs first for every request (gateway routes are mounted before the
 * pipelines): times it and, when the response is done or the client gave
 * up, records the histogram and writes one access-log line with the request
 * id. Probes and scrapes log at debug only, to keep the log about users.
 */
export function observeRequests(app: GatewayApp): void {
  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    // Read now: by 'close' a keep-alive socket may already be detached from the request.
    const remoteAddress = req.ip ?? req.socket.remoteAddress;
    res.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeOf(req);
      const aborted = !res.writableFinished;
      const statusCode = aborted && !res.headersSent ? 499 : res.statusCode;
      httpDuration.observe({ method: req.method ?? 'GET', route, status_code: String(statusCode) }, seconds);
      const level = QUIET_ROUTES.has(route) ? 'debug' : statusCode >= 500 ? 'warn' : 'info';
      logger[level](
        {
          reqId: requestIdOf(req),
          req: { method: req.method, url: redactUrl(pathOf(req.originalUrl)), remoteAddress },
          res: { statusCode },
          route,
          responseTime: Math.round(seconds * 1e5) / 100,
        },
        aborted ? 'request aborted' : 'request completed',
      );
    });
    next();
  });
}

/**
 * The public port never serves the metrics (issue 39: route counts, memory
 * and the upstreams' internal addresses were there for anyone, through the
 * edge and the Ingress too): a 404 as for any path nobody serves.
 */
export function noMetricsOnPublicPort(app: GatewayApp): void {
  app.get('/metrics', (req, res) => {
    labelRoute(req, 'metrics');
    sendJsonError(res, 404, 'Not found', requestIdOf(req));
  });
}

/** The gateway's operator port (GATEWAY_METRICS_PORT, 9464 by default): Prometheus's, never published. */
export const DEFAULT_METRICS_PORT = 9464;

/**
 * Serves /metrics (and /healthz) on the operator port, a listener of its own
 * beside express-gateway's: what Prometheus scrapes, on the pod's or the
 * container's network only. Bound like the public one (HOST): loopback in
 * `make dev` and the tests.
 */
export function startOperatorServer(port: number, host: string): Server {
  const server = createHttpServer((req, res) => {
    const path = pathOf(req.url ?? '/');
    if (req.method === 'GET' && path === '/metrics') {
      registry.metrics().then(
        (text) => {
          res.writeHead(200, { 'content-type': registry.contentType });
          res.end(text);
        },
        (err: unknown) => {
          logger.error({ err }, 'metrics not rendered');
          sendJsonError(res, 500, 'Metrics could not be rendered', undefined);
        },
      );
      return;
    }
    if (req.method === 'GET' && path === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end('{"status":"ok"}');
      return;
    }
    sendJsonError(res, 404, 'Not found', undefined);
  });
  server.listen(port, host, () => logger.info({ port, host }, 'operator port (metrics) listening'));
  server.on('error', (err) => {
    logger.fatal({ err, port }, 'operator port (metrics) could not listen');
    process.exit(1);
  });
  server.unref();
  return server;
}
