import { LIVE_EVENTS_PATH } from '@hoptrack/proto';
import { authOf, HttpError, REQUEST_ID_HEADER, type Authenticate, type ServiceApp } from '@hoptrack/runtime';
import type { LiveHub } from '../live/hub';

/** Live delivery: the viewer's server-sent event stream (see LiveHub and LiveFeed). */
export function liveRoutes(app: ServiceApp, deps: { hub: LiveHub; authenticate: Authenticate }): void {
  app.get(LIVE_EVENTS_PATH, { preHandler: deps.authenticate }, async (request, reply) => {
    const { userId, tokenVersion } = authOf(request);
    if (deps.hub.isFull) throw new HttpError(503, 'Too many live connections on this instance, please retry');
    request.log.info({ userId }, 'live stream opened');
    // The stream outlives the handler: Fastify hands the raw response over and stays out of it.
    reply.hijack();
    deps.hub.open(userId, tokenVersion, reply.raw, { [REQUEST_ID_HEADER]: request.id });
  });
  // Open streams would hold `app.close()` forever: end them first, clients reconnect elsewhere.
  app.addHook('preClose', async () => deps.hub.closeAll());
}
