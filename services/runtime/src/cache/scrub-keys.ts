import type { Redis } from 'ioredis';

/** A needle as a literal inside a SCAN pattern (glob characters escaped). */
const literal = (needle: string) => needle.replace(/[*?[\]\\]/g, (c) => `\\${c}`);

/**
 * Deletes every Redis key whose name holds one of `needles` (an erased
 * person's id or address: rate-limit windows, caches keyed by them), across
 * the whole key space, with SCAN so Redis is never blocked. What sits inside
 * other keys' values is each service's own erasure; this is the sweep for
 * what no service owns (docs/decisions.md).
 */
export async function scrubRedisKeys(redis: Redis, needles: readonly string[]): Promise<number> {
  let deleted = 0;
  for (const needle of needles.filter((n) => n.length > 0)) {
    // Keys are written with the id and the address as given (ids lowercase, addresses lowercased at the edge).
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `*${literal(needle)}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  }
  return deleted;
}
