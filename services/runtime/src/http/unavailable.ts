/**
 * Whether an error means a dependency (Postgres, Redis, NATS) cannot be
 * reached right now, rather than a bug: the answer is then 503 — retry
 * later — not 500. Drivers wrap the socket error differently (pg, Prisma's
 * adapter, ioredis), so the cause chain is searched for the usual codes.
 */
const UNAVAILABLE_CODES = new Set([
  // Sockets.
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND',
  // Postgres: admin shutdown, crash shutdown, cannot connect now, connection exceptions.
  '57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006',
  // Prisma: can't reach the server, timed out, server closed the connection, pool timeout.
  'P1001', 'P1002', 'P1017', 'P2024',
  // jose: auth's JWKS did not answer in time.
  'ERR_JWKS_TIMEOUT',
]);
const UNAVAILABLE_MESSAGE =
  /ECONNREFUSED|fetch failed|ECONNRESET|Connection terminated|Can't reach database server|terminating connection|the database system is (starting up|shutting down|in recovery mode|not yet accepting connections)|Connection is closed|has encountered a connection error and is not queryable|connection timeout|max retries per request|Stream isn't writeable/i;

export function isDependencyUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const { code, message, cause, meta } = current as { code?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
    // Prisma 7 keeps the driver's error (with the Postgres code, e.g. 57P03 during crash recovery) under
    // meta.driverAdapterError, outside the cause chain: a Postgres restart answered 500 until this was followed.
    current = cause ?? meta?.driverAdapterError;
  }
  return false;
}
