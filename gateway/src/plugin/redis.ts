import db from 'express-gateway/lib/db';

/**
 * The gateway's one Redis connection is express-gateway's own `db` client
 * (system.config.yml `db.redis`): no second pool, one place to configure it.
 */
export const redis = db;

/** Every Redis call of the gateway is bounded: a Redis that accepts connections but does not answer must not hold API requests hostage. */
export { withTimeout } from '@hoptrack/runtime/timeout';
