import { sendJsonError } from './errors';
import { logger } from './logger';
import { redis, withTimeout } from './redis';
import { requestIdOf } from './request-id';
import type { PolicyDefinition } from './types';

interface RateLimitParams {
  max: number;
  windowMs: number;
  keyPrefix: string;
}

/**
 * Fixed window per client address, shared by every gateway instance through
 * Redis. One script so the count and its expiry are set atomically (a crash
 * between INCR and PEXPIRE would otherwise leave a key that never expires).
 * Returns [count in this window, ms until the window resets].
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}`;

/**
 * The script as a client command, so each request sends its 40-byte SHA-1
 * (EVALSHA) rather than the script's text; ioredis sends EVAL once should
 * Redis answer NOSCRIPT (restarted, scripts flushed).
 */
const HIT_COMMAND = 'hoptrackRateLimitHit';
redis.defineCommand(HIT_COMMAND, { numberOfKeys: 1, lua: HIT_SCRIPT });
const hit = (redis as unknown as Record<typeof HIT_COMMAND, (key: string, windowMs: number) => Promise<unknown>>)[HIT_COMMAND].bind(redis);

const REDIS_TIMEOUT_MS = 250;
const WARN_EVERY_MS = 10_000;
let lastWarning = 0;

/**
 * Redis-backed rate limiting with the uniform JSON 429 (the built-in
 * `rate-limit` policy answers text and delays requests before refusing).
 * When Redis fails the request goes through: an outage of the limiter must
 * not become an outage of the API (services keep their own limits on
 * sensitive routes such as login); /readyz reports Redis meanwhile.
 */
export const rateLimitPolicy: PolicyDefinition<RateLimitParams> = {
  name: 'redis-rate-limit',
  schema: {
    $id: 'https://hoptrack.dev/schemas/gateway/policies/redis-rate-limit.json',
    type: 'object',
    properties: {
      max: { type: 'integer', minimum: 1, default: 600, description: 'Requests allowed per client and window' },
      windowMs: { type: 'integer', minimum: 1, default: 60000, description: 'Window length in milliseconds' },
      keyPrefix: { type: 'string', default: 'hoptrack:gateway:rate-limit:', description: 'Redis key prefix' },
    },
  },
  policy: ({ max, windowMs, keyPrefix }) => (req, res, next) => {
    const client = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    withTimeout(hit(keyPrefix + client, windowMs), REDIS_TIMEOUT_MS, 'Redis (rate limit)')
      .then(parseHit)
      .then(
        ({ count, ttlMs }) => {
          res.setHeader('x-ratelimit-limit', String(max));
          res.setHeader('x-ratelimit-remaining', String(Math.max(max - count, 0)));
          if (count <= max) return next();
          sendJsonError(res, 429, 'Too many requests, please try again later.', requestIdOf(req), {
            'retry-after': String(Math.max(Math.ceil((ttlMs > 0 ? ttlMs : windowMs) / 1000), 1)),
          });
        },
        (err: unknown) => {
          if (Date.now() - lastWarning > WARN_EVERY_MS) {
            lastWarning = Date.now();
            logger.warn({ err, reqId: requestIdOf(req) }, 'rate limiter unavailable, letting requests through');
          }
          next();
        },
      )
      // Only a throw further down the pipeline could land here, after next()
      // ran: log it rather than call next() twice or leave it unhandled.
      .catch((err: unknown) => logger.error({ err, reqId: requestIdOf(req) }, 'error after the rate limit'));
  },
};

function parseHit(reply: unknown): { count: number; ttlMs: number } {
  const [count, ttlMs] = Array.isArray(reply) ? reply.map(Number) : [];
  if (count === undefined || ttlMs === undefined || Number.isNaN(count)) {
    throw new Error(`unexpected rate-limit reply ${JSON.stringify(reply)}`);
  }
  return { count, ttlMs };
}
