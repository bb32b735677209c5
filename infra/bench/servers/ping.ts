import { createLogger, createMetrics, createServer } from '@hoptrack/runtime';

/**
 * The "trivial GET" of the gateway-hop benchmark: a service built like every
 * Hoptrack service (runtime createServer: request ids, metrics, logging,
 * error shape) with one route that does no work. Mounted under /api/bars so
 * a gateway whose places endpoint points here proxies it through the real
 * places pipeline.
 */
const logger = createLogger('bench-ping', process.env.LOG_LEVEL ?? 'warn');
const app = createServer({ logger, metrics: createMetrics('bench-ping') });
app.get('/api/bars/ping', async () => ({ ok: true }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
