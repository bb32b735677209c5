import { sendJsonError } from './errors';
import { logger } from './logger';
import { redis } from './redis';
import { requestIdOf } from './request-id';
import { SharedWindows } from './shared-windows';
import type { PolicyDefinition } from './types';

interface RateLimitParams {
  max: number;
  windowMs: number;
  keyPrefix: string;
  syncMs: number;
}

/**
 * Fixed window per client address, shared by every gateway instance through
 * Redis. One script so the count and its expiry are set atomically (a crash
 * between INCRBY and PEXPIRE would otherwise leave a key that never expires).
 * A gateway sends the hits it counted since its last batch (SharedWindows).
 * Returns [count in this window, ms until the window resets].
 */
const HIT_SCRIPT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
if count == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}`;

/**
 * The script as a client command, so each batch sends its 40-byte SHA-1
 * (EVALSHA) rather than the script's text; ioredis sends EVAL once should
 * Redis answer NOSCRIPT (restarted, scripts flushed).
 */
const HIT_COMMAND = 'hoptrackRateLimitHits';
redis.defineCommand(HIT_COMMAND, { numberOfKeys: 1, lua: HIT_SCRIPT });

/** A pipeline with the script defined above as a method (ioredis adds it at defineCommand). */
type HitsPipeline = ReturnType<typeof redis.pipeline> & Record<typeof HIT_COMMAND, (key: string, windowMs: number, hits: number) => void>;

const WARN_EVERY_MS = 10_000;
/** Clients one gateway holds counts for at once (a few hundred bytes each). */
const MAX_CLIENTS = 100_000;
let lastWarning = 0;

/** One set of windows per budget (prefix, size, window), shared by every pipeline that uses it. */
const budgets = new Map<string, SharedWindows>();

function windowsFor({ max, windowMs, keyPrefix, syncMs }: RateLimitParams): SharedWindows {
  const id = `${keyPrefix}|${max}|${windowMs}`;
  let windows = budgets.get(id);
  if (!windows) {
    windows = new SharedWindows({
      windowMs,
      syncMs,
      maxClients: MAX_CLIENTS,
      // No timeout of our own: a batch given up on while Redis was only slow would still be applied
      // there, and its hits, kept pending, sent again (CI counted 24 hits for 20 requests). No request
      // waits for a batch; while one is out, hits are judged and counted here and go with the next.
      // A Redis that fails answers with ioredis's error (then the hits are sent again, once).
      sync: async (hits) => {
        const pipeline = redis.pipeline() as HitsPipeline;
        for (const { key, hits: n } of hits) pipeline[HIT_COMMAND](keyPrefix + key, windowMs, n);
        const results = (await pipeline.exec()) ?? [];
        return results.map(([err, reply]) => (err ? [Number.NaN, Number.NaN] : parseHit(reply)));
      },
      onSyncError: (err) => {
        if (Date.now() - lastWarning > WARN_EVERY_MS) {
          lastWarning = Date.now();
          logger.warn({ err }, 'rate limiter cannot reach Redis; each gateway limits on its own counts meanwhile');
        }
      },
    });
    budgets.set(id, windows);
  }
  return windows;
}

/**
 * Rate limiting with the uniform JSON 429 (the built-in `rate-limit` policy
 * answers text and delays requests before refusing), judged in this process
 * on counts shared through Redis (SharedWindows): no request waits for
 * Redis. When Redis fails, each gateway limits on its own counts: an outage
 * of Redis neither stops the API nor lifts the limit (services keep their
 * own limits on sensitive routes such as login); /readyz reports Redis
 * meanwhile.
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
      syncMs: { type: 'integer', minimum: 1, default: 100, description: 'How often the counted hits go to Redis in one batch' },
    },
  },
  policy: (params) => {
    const windows = windowsFor(params);
    return (req, res, next) => {
      const client = req.ip ?? req.socket.remoteAddress ?? 'unknown';
      const { count, resetsInMs } = windows.hit(client);
      res.setHeader('x-ratelimit-limit', String(params.max));
      res.setHeader('x-ratelimit-remaining', String(Math.max(params.max - count, 0)));
      if (count <= params.max) return next();
      sendJsonError(res, 429, 'Too many requests, please try again later.', requestIdOf(req), {
        'retry-after': String(Math.max(Math.ceil(resetsInMs / 1000), 1)),
      });
    };
  },
};

function parseHit(reply: unknown): [number, number] {
  const [count, ttlMs] = Array.isArray(reply) ? reply.map(Number) : [];
  if (count === undefined || ttlMs === undefined || Number.isNaN(count)) {
    throw new Error(`unexpected rate-limit reply ${JSON.stringify(reply)}`);
  }
  return [count, ttlMs];
}
