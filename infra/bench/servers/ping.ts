import { defineRoutes, publicAccess } from '@hoptrack/proto';
import { z } from 'zod';
import { createLogger, createMetrics, createServer, mountRoutes, type SqlClient } from '@hoptrack/runtime';

/**
 * The "trivial GET" of the gateway-hop benchmark: a service built like every
 * Hoptrack service (runtime createServer: request ids, metrics, logging,
 * error shape) with one route that does no work. Mounted under /api/bars so
 * a gateway whose places endpoint points here proxies it through the real
 * places pipeline (the gateway routes GET /api/bars/:id to places). Mounted
 * from a contract, as every service route is, so it pays what they pay.
 */
const pingApi = defineRoutes('places', {
  ping: { method: 'GET', path: '/api/bars/ping', summary: 'no work at all', access: publicAccess('a benchmark reference'), responses: { 200: z.object({ ok: z.boolean() }) } },
});
const logger = createLogger('bench-ping', process.env.LOG_LEVEL ?? 'warn');
const app = createServer({ logger, metrics: createMetrics('bench-ping') });
/** No database: the one route is a GET, and only writes keep Idempotency-Key answers. */
const noDatabase: SqlClient = {
  $executeRawUnsafe: () => Promise.reject(new Error('the ping server has no database')),
  $queryRawUnsafe: () => Promise.reject(new Error('the ping server has no database')),
};
mountRoutes(app, pingApi, { ping: async () => ({ ok: true }) }, { authenticate: async () => undefined, db: noDatabase });
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
