import { presenceList, presenceQuery } from '@hoptrack/proto';
import { authOf, type Authenticate, type ServiceApp } from '@hoptrack/runtime';
import type { Presence } from '../presence/presence';

/**
 * Presence (issue 25, item 1): who of `ids` is online, for the dots on
 * friends' avatars. Only people the viewer may see are answered (friends with
 * Show Online Status on, no block); the rest are absent, whatever the reason.
 */
export function presenceRoutes(app: ServiceApp, deps: { presence: Presence; authenticate: Authenticate }): void {
  app.get('/api/presence', { preHandler: deps.authenticate, schema: { querystring: presenceQuery, response: { 200: presenceList } } }, async (request) =>
    deps.presence.view(authOf(request).userId, request.query.ids),
  );
}
