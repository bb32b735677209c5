import type { ServerResponse } from 'node:http';
import { isDraining } from './draining';
import { labelRoute } from './observe';
import { redis, withTimeout } from './redis';
import type { GatewayApp } from './types';

const READY_TIMEOUT_MS = 1000;

function sendJson(res: ServerResponse, statusCode: number, body: object): void {
  res.writeHead(statusCode, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/**
 * /healthz: the process serves HTTP. /readyz: it can also do its job, which
 * needs Redis (rate limits). The services behind it are deliberately not
 * checked: one service down must not take the whole gateway out of a load
 * balancer; its prefix answers 503 instead.
 */
export function healthRoutes(app: GatewayApp): void {
  app.get('/healthz', (req, res) => {
    labelRoute(req, 'healthz');
    sendJson(res, 200, { status: 'ok' });
  });

  app.get('/readyz', (req, res) => {
    labelRoute(req, 'readyz');
    if (isDraining()) {
      sendJson(res, 503, { status: 'draining', checks: {} });
      return;
    }
    withTimeout(redis.ping(), READY_TIMEOUT_MS, 'Redis (readiness)').then(
      () => sendJson(res, 200, { status: 'ready', checks: { redis: 'ok' } }),
      (err: unknown) =>
        sendJson(res, 503, {
          status: 'not ready',
          checks: { redis: err instanceof Error ? err.message : 'failed' },
        }),
    );
  });
}
