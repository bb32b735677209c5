import Fastify from 'fastify';
import { Redis } from 'ioredis';

/**
 * The feed benchmark's reference: a bare Fastify handler that does only the
 * Redis range read of a timeline (the first step of a feed page) and sends
 * the ids back — no auth, no Postgres, no hydration. What the real feed read
 * costs on top of this is the work the product adds.
 */
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const prefix = process.env.TIMELINE_PREFIX ?? 'bench:timeline:';
const app = Fastify({ logger: false });
app.get<{ Params: { userId: string } }>('/timeline/:userId', async (request) => {
  // Entries are 32 bytes (session, author; services/sessions/src/feed/timelines.ts): sent back as hex.
  const entries = await redis.zrevrangebyscoreBuffer(`${prefix}${request.params.userId}`, '(+inf', '-inf', 'LIMIT', 0, 20);
  return { ids: entries.map((e) => e.toString('hex')) };
});
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.once('SIGTERM', () => {
  redis.disconnect();
  void app.close().then(() => process.exit(0));
});
