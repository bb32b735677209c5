import type { Redis } from 'ioredis';
import { HttpError } from './errors';
import { isDependencyUnavailable } from './unavailable';

export type LimiterRedis = Redis;

// One round trip, atomic: the first hit of a window starts its clock.
const HIT = `local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return n`;
const HIT_COMMAND = 'hoptrackLimiterHit';
type HittingRedis = Redis & { [HIT_COMMAND](key: string, windowMs: number): Promise<unknown> };

/**
 * A fixed-window counter in Redis, shared by every replica. It fails closed:
 * when Redis cannot count, the request is refused with 503 rather than let
 * through unlimited (a limiter that opens when its store is down is no limit
 * on the day someone takes the store down first).
 */
export class FixedWindowLimiter {
  private readonly redis: HittingRedis;

  constructor(
    redis: LimiterRedis,
    private readonly options: { prefix: string; windowMs: number },
  ) {
    // Sent by SHA (EVALSHA), not as script text on every hit, as the gateway's limit.
    if (!(HIT_COMMAND in redis)) redis.defineCommand(HIT_COMMAND, { numberOfKeys: 1, lua: HIT });
    this.redis = redis as HittingRedis;
  }

  /** Counts one hit under `key`; resolves the hits of the current window, this one included. */
  async hit(key: string): Promise<number> {
    return Number(await this.guard(this.redis[HIT_COMMAND](this.options.prefix + key, this.options.windowMs)));
  }

  /** The hits of the current window, without counting one. */
  async count(key: string): Promise<number> {
    return Number((await this.guard(this.redis.get(this.options.prefix + key))) ?? 0);
  }

  /** Deletes these windows (an erased person's, by name); resolves how many there were. */
  async forget(keys: readonly string[]): Promise<number> {
    return keys.length > 0 ? this.redis.unlink(...keys.map((key) => this.options.prefix + key)) : 0;
  }

  private async guard<T>(call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (err) {
      // Redis down: the error handler's 503 (with Retry-After). Anything else refuses too.
      if (isDependencyUnavailable(err)) throw err;
      throw Object.assign(new HttpError(503, 'Service temporarily unavailable, please retry shortly'), { cause: err });
    }
  }
}
