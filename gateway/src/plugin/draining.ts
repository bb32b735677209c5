import type { Middleware } from './types';

/**
 * The gateway's own drain, as the services do theirs (runtime lifecycle): on
 * SIGTERM its /readyz answers 503 so the edge (HAProxy, an Ingress) stops
 * sending to it, and every answer says `Connection: close` so clients open
 * their next request elsewhere instead of reusing a socket that is about to
 * close. src/server.ts closes the listener only after SHUTDOWN_DRAIN_MS.
 */
let draining = false;
process.once('SIGTERM', () => {
  draining = true;
});

export const isDraining = (): boolean => draining;

export const closeConnectionsWhileDraining: Middleware = (_req, res, next) => {
  if (draining) res.setHeader('connection', 'close');
  next();
};
