import type { IncomingMessage } from 'node:http';
import { redactUrl } from '@hoptrack/runtime/logger';
import { createMetrics } from '@hoptrack/runtime/metrics';
import { pathOf } from './errors';
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

export function metricsRoute(app: GatewayApp): void {
  app.get('/metrics', (req, res, next) => {
    labelRoute(req, 'metrics');
    registry.metrics().then((text) => {
      res.writeHead(200, { 'content-type': registry.contentType });
      res.end(text);
    }, next);
  });
}
