import db from 'express-gateway/lib/db';

/**
 * The gateway's one Redis connection is express-gateway's own `db` client
 * (system.config.yml `db.redis`): no second pool, one place to configure it.
 */
export const redis = db;

/**
 * A Redis call that gives up after `ms`: a Redis that accepts connections
 * but does not answer must not hold API requests hostage.
 */
export function withTimeout<T>(call: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer from Redis in ${ms} ms`)), ms);
  });
  return Promise.race([call, timeout]).finally(() => clearTimeout(timer));
}
