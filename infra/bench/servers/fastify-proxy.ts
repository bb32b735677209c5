import proxy from '@fastify/http-proxy';
import Fastify from 'fastify';

/**
 * The gateway-hop benchmark's second reference: the least a Node reverse
 * proxy can do — Fastify with @fastify/http-proxy (undici, keep-alive) and
 * no policies, no logging. Built only for the comparison, never shipped.
 */
const app = Fastify({ logger: false });
await app.register(proxy, { upstream: process.env.UPSTREAM_URL ?? '', prefix: '/', rewritePrefix: '/' });
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
